package io.xd.admin.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells which containers holding allocations have left: a container counts as gone once it has been missing for
 * {@code gracePeriod}, so that one whose ZooKeeper session blips, or that restarts with the same id, keeps its
 * modules. Not thread-safe: used by the supervisor's reconciling thread only.
 */
final class DepartedContainers {

	private static final Logger logger = LoggerFactory.getLogger(DepartedContainers.class);

	private final Duration gracePeriod;

	/** When each missing holder was first seen missing, in {@link System#nanoTime()} terms. */
	private final Map<String, Long> missingSince = new HashMap<>();

	DepartedContainers(Duration gracePeriod) {
		this.gracePeriod = gracePeriod;
	}

	/**
	 * The holders missing from {@code live} for at least the grace period as of {@code nowNanos}; they are
	 * forgotten, as their allocations are about to be dropped. A holder seen live again starts afresh.
	 * @param live the ids of the containers present now
	 * @param holders the ids of the containers that hold allocations
	 * @param nowNanos the current {@link System#nanoTime()}
	 */
	List<String> departed(Set<String> live, Set<String> holders, long nowNanos) {
		this.missingSince.keySet().retainAll(holders);
		this.missingSince.keySet().removeAll(live);
		List<String> departed = new ArrayList<>();
		for (String containerId : holders) {
			if (live.contains(containerId)) {
				continue;
			}
			long since = this.missingSince.computeIfAbsent(containerId, id -> nowNanos);
			if (nowNanos - since < this.gracePeriod.toNanos()) {
				logger.debug("Container {} is missing; its modules stay allocated for up to {}", containerId,
						this.gracePeriod);
				continue;
			}
			this.missingSince.remove(containerId);
			departed.add(containerId);
		}
		return departed;
	}

	/**
	 * How long until the first missing holder's grace period ends, as of {@code nowNanos}; empty when none is
	 * missing. The supervisor reconciles again then, rather than at its next periodic run.
	 */
	Optional<Duration> nextDeparture(long nowNanos) {
		return this.missingSince.values()
			.stream()
			.min(Long::compare)
			.map(since -> Duration.ofNanos(Math.max(0, since + this.gracePeriod.toNanos() - nowNanos)));
	}
}
