package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One provider per state file: an exclusive lock on {@code <state>.lock}, released by the OS when
 * the process dies. A separate file, because SQLite's own POSIX locks on the database would be
 * dropped if this process opened and closed another descriptor on it.
 */
final class StateFileLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private StateFileLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static StateFileLock acquire(Path stateFile) throws StoreException {
        Path lockFile = stateFile.resolveSibling(stateFile.getFileName() + ".lock");
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StoreException(
                    "--state " + stateFile + ": cannot open lock file " + lockFile + ": " + e.getMessage());
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw locked(stateFile, lockFile, channel);
            }
            return new StateFileLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            throw locked(stateFile, lockFile, channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StoreException("--state " + stateFile + ": cannot lock " + lockFile + ": " + e.getMessage());
        }
    }

    private static StoreException locked(Path stateFile, Path lockFile, FileChannel channel) {
        closeQuietly(channel);
        return new StoreException("--state " + stateFile + ": the state file is locked by another provider process"
                + " (lock file " + lockFile + ")");
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(channel);
    }
}
