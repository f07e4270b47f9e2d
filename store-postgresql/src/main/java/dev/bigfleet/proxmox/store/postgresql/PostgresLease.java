package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.engine.store.LeaderLease;
import dev.bigfleet.proxmox.engine.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease in {@code leader_lease}, one row, on the database's clock. Acquiring mints the next
 * epoch; it waits for the share lock every leader write holds on the row, so every write of the
 * previous holder is committed before the new epoch is, and none after.
 */
final class PostgresLease implements LeaderLease {
    private static final Logger log = LoggerFactory.getLogger(PostgresLease.class);
    /**
     * How long an acquisition waits for the previous holder's write to finish: a holder frozen in
     * the middle of one is cut off by the database after the idle-in-transaction timeout.
     */
    private static final String LOCK_WAIT = "1s";

    private final DataSource pool;
    private final String where;

    PostgresLease(DataSource pool, String where) {
        this.pool = pool;
        this.where = where;
    }

    @Override
    public OptionalLong tryAcquire(String name, Duration duration) throws StoreException {
        try (Connection db = pool.getConnection()) {
            db.setAutoCommit(false);
            try {
                try (Statement st = db.createStatement()) {
                    st.execute("SET LOCAL lock_timeout = '" + LOCK_WAIT + "'");
                }
                OptionalLong epoch;
                try (PreparedStatement st = db.prepareStatement("UPDATE leader_lease SET epoch = epoch + 1,"
                        + " holder_name = ?, expires_at = clock_timestamp() + ? * interval '1 millisecond'"
                        + " WHERE id = 1 AND expires_at <= clock_timestamp() RETURNING epoch")) {
                    st.setString(1, name);
                    st.setLong(2, duration.toMillis());
                    try (ResultSet rs = st.executeQuery()) {
                        epoch = rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                    }
                }
                db.commit();
                return epoch;
            } catch (SQLException e) {
                db.rollback();
                if ("55P03".equals(e.getSQLState())) {
                    return OptionalLong.empty(); // the previous holder is still writing; try again later
                }
                throw e;
            } finally {
                db.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure("cannot take the leader lease", e);
        }
    }

    @Override
    public boolean renew(long epoch, Duration duration) throws StoreException {
        try (Connection db = pool.getConnection();
                PreparedStatement st = db.prepareStatement("UPDATE leader_lease"
                        + " SET expires_at = clock_timestamp() + ? * interval '1 millisecond'"
                        + " WHERE id = 1 AND epoch = ?")) {
            st.setLong(1, duration.toMillis());
            st.setLong(2, epoch);
            return st.executeUpdate() == 1;
        } catch (SQLException e) {
            throw failure("cannot renew the leader lease", e);
        }
    }

    @Override
    public void release(long epoch) {
        try (Connection db = pool.getConnection();
                PreparedStatement st = db.prepareStatement(
                        "UPDATE leader_lease SET expires_at = clock_timestamp() WHERE id = 1 AND epoch = ?")) {
            st.setLong(1, epoch);
            st.executeUpdate();
        } catch (SQLException e) {
            log.warn("{}: releasing the leader lease failed (it expires on its own): {}", where, oneLine(e));
        }
    }

    @Override
    public Optional<LeaseHolder> holder() throws StoreException {
        try (Connection db = pool.getConnection();
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT holder_name, epoch, expires_at > clock_timestamp()"
                        + " FROM leader_lease WHERE id = 1")) {
            if (!rs.next() || rs.getLong(2) == 0) {
                return Optional.empty();
            }
            return Optional.of(new LeaseHolder(rs.getString(1), rs.getLong(2), rs.getBoolean(3)));
        } catch (SQLException e) {
            throw failure("cannot read the leader lease", e);
        }
    }

    private StoreException failure(String what, SQLException e) {
        return new StoreException(where + ": " + what + ": " + oneLine(e), e);
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replace('\n', ' ');
    }
}
