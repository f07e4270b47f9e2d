package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which answers to a call are an expected "not yet" rather than a success or an error: a task or a
 * guest command still running, a guest agent still booting. They are counted as {@code waiting}, so
 * an alert on the error ratio stays quiet while healthy Creates wait for their VMs.
 */
interface NotYet {
    /** Nothing about this call is a wait. */
    NotYet NEVER = new NotYet() {};

    /** A task status that says the task still runs. */
    NotYet TASK_RUNNING = new NotYet() {
        @Override
        public boolean answer(JsonNode data) {
            return TaskStatus.from(data).running();
        }
    };

    /** An exec status that says the guest command has not exited. */
    NotYet EXEC_RUNNING = new NotYet() {
        @Override
        public boolean answer(JsonNode data) {
            return !ExecStatus.from(data).exited();
        }
    };

    /** A ping of a guest agent that is not up yet (the VM runs, the agent inside has not started). */
    NotYet AGENT_BOOTING = new NotYet() {
        @Override
        public boolean failure(PveApiException e) {
            return e.isStatus(500)
                    && (e.mentions("guest agent is not running")
                            || (e.mentions("guest-ping") && e.mentions("timeout")));
        }
    };

    /** Whether a successful answer's {@code data} means "not yet". */
    default boolean answer(JsonNode data) {
        return false;
    }

    /** Whether a failure means "not yet". */
    default boolean failure(PveApiException e) {
        return false;
    }
}
