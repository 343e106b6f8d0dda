package io.xd.modules.builtin;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.core.NestedExceptionUtils;

import io.xd.modules.ModuleContext;

/**
 * Small helpers the built-in modules share: a timer thread named after the module, option checks, comma-separated
 * lists, and the root reason of a client's failure.
 */
public final class ModuleSupport {

	private ModuleSupport() {
	}

	/**
	 * A single daemon thread for scheduled work, named {@code xd-<stream>-<label>-<purpose>-1}; end it with
	 * {@link #shutdown}. A task that throws (an executor would keep the exception in the task's future, and a periodic
	 * task would silently stop) {@linkplain ModuleContext#fail(Throwable) fails the module}.
	 */
	public static ScheduledExecutorService scheduler(ModuleContext context, String purpose) {
		return new ScheduledThreadPoolExecutor(1, context.threadFactory(purpose)) {

			@Override
			protected void afterExecute(Runnable task, Throwable thrown) {
				super.afterExecute(task, thrown);
				Throwable cause = thrown;
				if (cause == null && task instanceof Future<?> future && future.isDone() && !future.isCancelled()) {
					try {
						future.get();
					}
					catch (ExecutionException ex) {
						cause = ex.getCause();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				if (cause != null) {
					context.fail(cause);
				}
			}
		};
	}

	/**
	 * Interrupts the executor's tasks and waits up to 5 seconds for them to end; does nothing for {@code null}.
	 * An interrupt while waiting is kept on the calling thread.
	 */
	public static void shutdown(ExecutorService executor) {
		if (executor == null) {
			return;
		}
		executor.shutdownNow();
		try {
			executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Whether {@code name} names a character set this JVM supports (an option rule). */
	public static boolean isCharset(String name) {
		try {
			return Charset.isSupported(name);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/** The items of a comma-separated list, trimmed, blanks left out. */
	public static List<String> commaList(String text) {
		return Arrays.stream(text.split(",")).map(String::strip).filter(item -> !item.isEmpty()).toList();
	}

	/** What a client's failure says at its root, for a module's message (clients wrap the server's answer). */
	public static String reason(Throwable failure) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
		return (cause.getMessage() == null) ? cause.getClass().getSimpleName() : cause.getMessage();
	}
}
