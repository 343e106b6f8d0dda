package io.xd.container;

/**
 * How long a container may go on running its modules without hearing from ZooKeeper: a fraction of its session
 * timeout ({@code xd.container.leaseFraction}) from the moment it sent the last request that ZooKeeper answered in
 * the session of its registration. ZooKeeper cannot have expired that session before the whole timeout has passed
 * since that request reached it, and the leader moves the modules only {@code xd.admin.departureGracePeriod} after
 * that: a container that stops its modules when its lease runs out has stopped them before anyone else runs them.
 * <p>
 * Measured on the monotonic clock ({@link System#nanoTime()}), which goes on while the process is stopped
 * ({@code SIGSTOP}) or frozen by a long GC: a process resumed after longer than the lease finds it run out at once.
 * Thread-safe.
 */
final class SessionLease {

	private final double fraction;

	/** The session the lease is on; 0 for none. */
	private long session;

	/** When the lease runs out, in {@link System#nanoTime()}. */
	private long validUntil;

	/** When ZooKeeper may expire the session at the earliest, in {@link System#nanoTime()}. */
	private long sessionSafeUntil;

	/**
	 * @param fraction the part of the session timeout the lease lasts, above 0 and at most 1
	 */
	SessionLease(double fraction) {
		if (!(fraction > 0 && fraction <= 1)) {
			throw new IllegalArgumentException("xd.container.leaseFraction must be above 0 and at most 1 (the part of "
					+ "the ZooKeeper session timeout a container runs its modules without hearing from ZooKeeper), "
					+ "not " + fraction);
		}
		this.fraction = fraction;
	}

	double fraction() {
		return this.fraction;
	}

	/**
	 * ZooKeeper answered, in {@code session}, a request sent at {@code sentAt}: the lease lasts from then on; a
	 * lease on another session ends.
	 */
	synchronized void renewed(long session, long sentAt, long sessionTimeoutMillis) {
		long timeout = sessionTimeoutMillis * 1_000_000L;
		long until = sentAt + (long) (timeout * this.fraction);
		if (session != this.session) {
			this.session = session;
			this.validUntil = until;
			this.sessionSafeUntil = sentAt + timeout;
		}
		else if (until - this.validUntil > 0) {
			this.validUntil = until;
			this.sessionSafeUntil = sentAt + timeout;
		}
	}

	/** The session is gone: the lease ends now. */
	synchronized void end() {
		this.session = 0;
	}

	/** Whether the lease holds now. */
	synchronized boolean valid() {
		return this.session != 0 && System.nanoTime() - this.validUntil < 0;
	}

	/** Whether the lease holds now on {@code session}. */
	synchronized boolean validOn(long session) {
		return session != 0 && this.session == session && valid();
	}

	/** How long, in nanoseconds, until ZooKeeper may expire the session at the earliest; 0 when it may already. */
	synchronized long nanosUntilSessionMayExpire() {
		return (this.session == 0) ? 0 : Math.max(0, this.sessionSafeUntil - System.nanoTime());
	}

	/** How long ago, in milliseconds, the lease was last renewed (the request answered last was sent). */
	synchronized long millisSinceRenewed(long sessionTimeoutMillis) {
		long lasted = (long) (sessionTimeoutMillis * 1_000_000L * this.fraction);
		return (System.nanoTime() - (this.validUntil - lasted)) / 1_000_000;
	}
}
