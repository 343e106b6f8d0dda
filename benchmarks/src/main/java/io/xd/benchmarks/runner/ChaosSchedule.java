package io.xd.benchmarks.runner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The faults of one {@code chaos} run, drawn from its seed alone, so that a seed gives the same schedule again:
 * the kinds come in rounds, each round every {@link Kind} once in an order of its own, one fault every 4-9 s from
 * 5 s on; a process killed or stopped is started again after 1-5 s, a paused one resumed (or a container cut off
 * from ZooKeeper reconnected, or a broker's full disk freed) after the ZooKeeper session timeout and 2-6 s more. The
 * schedule does not depend on the number of brokers: a broker fault names a member (0, 1, 2) as a container fault
 * does, and hits that broker when there are three.
 */
final class ChaosSchedule {

	/** The process a fault is aimed at. */
	enum Target {
		CONTAINER, LEADER_ADMIN, BROKER, ZOOKEEPER
	}

	/** What a fault does: a signal to one process of the cluster, a cut, or a full disk. */
	enum Kind {

		CONTAINER_KILL(Target.CONTAINER, "KILL"), CONTAINER_TERM(Target.CONTAINER, "TERM"),
		CONTAINER_PAUSE(Target.CONTAINER, "STOP"), ADMIN_KILL(Target.LEADER_ADMIN, "KILL"),
		ADMIN_TERM(Target.LEADER_ADMIN, "TERM"), ADMIN_PAUSE(Target.LEADER_ADMIN, "STOP"),
		BROKER_KILL(Target.BROKER, "KILL"), BROKER_TERM(Target.BROKER, "TERM"), ZOOKEEPER_KILL(Target.ZOOKEEPER, "KILL"),
		ZOOKEEPER_TERM(Target.ZOOKEEPER, "TERM"), CONTAINER_ZOOKEEPER_CUT(Target.CONTAINER, null),
		BROKER_PAUSE(Target.BROKER, "STOP"), ZOOKEEPER_PAUSE(Target.ZOOKEEPER, "STOP"),
		BROKER_DISK_FULL(Target.BROKER, null);

		final Target target;

		/**
		 * The signal sent: KILL or TERM (the process is started again after the hold) or STOP (CONT after it); none
		 * for a container cut off from ZooKeeper (its connections through its ZooKeeper proxy reset and refused, Kafka
		 * untouched, until the hold is over) and for a broker's full disk (its log directory, a small tmpfs of its own,
		 * filled by a file of the suite's until the hold is over; a broker that died of it is started again).
		 */
		final String signal;

		Kind(Target target, String signal) {
			this.target = target;
			this.signal = signal;
		}

		/** Whether the process is meant to run through the fault: paused, cut off from ZooKeeper, or its disk full. */
		boolean pause() {
			return this.signal == null || this.signal.equals("STOP");
		}

		/** Whether this is a container cut off from ZooKeeper rather than a signal. */
		boolean cut() {
			return this.signal == null && this.target == Target.CONTAINER;
		}

		/** Whether this is a broker's full disk rather than a signal. */
		boolean diskFull() {
			return this.signal == null && this.target == Target.BROKER;
		}

		/** {@code SIGKILL container}, {@code SIGSTOP leading admin}, ... */
		String describe() {
			if (cut()) {
				return "ZooKeeper cut off from container";
			}
			if (diskFull()) {
				return "full disk of broker";
			}
			String what = switch (this.target) {
				case CONTAINER -> "container";
				case LEADER_ADMIN -> "leading admin";
				case BROKER -> "broker";
				case ZOOKEEPER -> "ZooKeeper";
			};
			return "SIG" + this.signal + " " + what;
		}
	}

	/**
	 * One fault.
	 *
	 * @param index its number in the run, from 1
	 * @param atMillis when, from the start of the faults
	 * @param kind what
	 * @param container which container (0, 1, 2) for a container fault, the first of them that is up when it is
	 * taken; which broker of three for a broker fault
	 * @param holdMillis how long the process stays down or paused
	 */
	record Fault(int index, long atMillis, Kind kind, int container, long holdMillis) {

		String describe() {
			return this.kind.describe() + (this.kind.target == Target.CONTAINER ? " c" + (this.container + 1) : "");
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "#%d at %.1f s: %s, %s %.1f s", this.index, this.atMillis / 1000.0,
					describe(), this.kind.cut() ? "reconnected after" : this.kind.diskFull() ? "freed after"
							: this.kind.pause() ? "resumed after"
							: "started again after", this.holdMillis / 1000.0);
		}
	}

	static final int CONTAINERS = 3;

	private ChaosSchedule() {
	}

	/** The faults of a run of {@code duration} with seed {@code seed}, in time order. */
	static List<Fault> plan(long seed, Duration duration, Duration sessionTimeout) {
		Random random = new Random(seed);
		List<Fault> faults = new ArrayList<>();
		List<Kind> round = new ArrayList<>();
		long at = 5_000;
		while (at < duration.toMillis()) {
			if (round.isEmpty()) {
				round.addAll(List.of(Kind.values()));
				Collections.shuffle(round, random);
			}
			Kind kind = round.remove(0);
			long hold = kind.pause() ? sessionTimeout.toMillis() + 2_000 + random.nextInt(4_001)
					: 1_000 + random.nextInt(4_001);
			faults.add(new Fault(faults.size() + 1, at, kind, random.nextInt(CONTAINERS), hold));
			at += 4_000 + random.nextInt(5_001);
		}
		return List.copyOf(faults);
	}
}
