package dev.bigfleet.proxmox.backend.proxmox.kube;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * What a call to a cluster's API ran into, told in a few words: the HTTP status and the API server's
 * own message, or, when no answer came, the innermost cause (a refused connection, a certificate the
 * kubeconfig's CA does not vouch for). The client's own message, which repeats the request's URL, is
 * left out; none of it holds the kubeconfig's credentials.
 */
final class ApiProblem {
    private static final int MAX = 300;

    private ApiProblem() {}

    /** Whether the failure is the client noticing that its thread was interrupted. */
    static boolean isInterruption(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Thread.currentThread().isInterrupted();
    }

    /** Whether the API server refused the credentials (401) or the request (403). */
    static boolean isRefusal(KubernetesClientException e) {
        return e.getCode() == 401 || e.getCode() == 403;
    }

    /** What went wrong asking cluster {@code clusterId}'s API server at {@code server}, for a failure message. */
    static String trouble(String clusterId, String server, KubernetesClientException e) {
        return "the API server of cluster " + clusterId + " (" + server + ") "
                + (e.getCode() > 0 ? "answered " : "did not answer: ") + describe(e);
    }

    static String describe(KubernetesClientException e) {
        if (e.getCode() > 0) {
            String message = Optional.ofNullable(e.getStatus())
                    .map(Status::getMessage)
                    .filter(m -> !m.isBlank())
                    .orElse("");
            return shorten("HTTP " + e.getCode() + (message.isEmpty() ? "" : ": " + message));
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root == e) {
            return shorten(String.valueOf(e.getMessage()));
        }
        return shorten(root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage()));
    }

    static String shorten(String text) {
        String line = text.replaceAll("\\s+", " ").trim();
        return line.length() <= MAX ? line : line.substring(0, MAX) + "...";
    }
}
