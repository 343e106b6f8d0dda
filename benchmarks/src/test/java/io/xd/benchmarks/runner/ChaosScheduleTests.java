package io.xd.benchmarks.runner;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.xd.benchmarks.runner.ChaosSchedule.Fault;
import io.xd.benchmarks.runner.ChaosSchedule.Kind;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosScheduleTests {

	private static final Duration SESSION = Duration.ofSeconds(6);

	@Test
	void aSeedGivesTheSameScheduleAgainAndAnotherSeedAnother() {
		List<Fault> first = ChaosSchedule.plan(42, Duration.ofMinutes(2), SESSION);

		assertThat(ChaosSchedule.plan(42, Duration.ofMinutes(2), SESSION)).isEqualTo(first);
		assertThat(ChaosSchedule.plan(43, Duration.ofMinutes(2), SESSION)).isNotEqualTo(first);
	}

	@Test
	void everyKindComesOncePerRoundEveryFourToNineSecondsWithinTheDuration() {
		List<Fault> faults = ChaosSchedule.plan(7, Duration.ofMinutes(10), SESSION);

		int kinds = Kind.values().length;
		for (int round = 0; round + kinds <= faults.size(); round += kinds) {
			EnumSet<Kind> seen = EnumSet.noneOf(Kind.class);
			faults.subList(round, round + kinds).forEach(fault -> seen.add(fault.kind()));
			assertThat(seen).containsExactlyInAnyOrder(Kind.values());
		}
		assertThat(faults.get(0).atMillis()).isEqualTo(5_000);
		for (int i = 1; i < faults.size(); i++) {
			assertThat(faults.get(i).atMillis() - faults.get(i - 1).atMillis()).isBetween(4_000L, 9_000L);
			assertThat(faults.get(i).index()).isEqualTo(i + 1);
		}
		assertThat(faults.get(faults.size() - 1).atMillis()).isLessThan(600_000);
		assertThat(faults.size()).isGreaterThan(600 / 9);
	}

	@Test
	void aPauseOutlastsTheSessionTimeoutAndAStoppedServerComesBackWithinFiveSeconds() {
		for (Fault fault : ChaosSchedule.plan(11, Duration.ofMinutes(10), SESSION)) {
			if (fault.kind().pause()) {
				assertThat(fault.holdMillis()).isBetween(8_000L, 12_000L);
			}
			else {
				assertThat(fault.holdMillis()).isBetween(1_000L, 5_000L);
			}
			assertThat(fault.container()).isBetween(0, ChaosSchedule.CONTAINERS - 1);
		}
	}

	@Test
	void describesAFault() {
		Fault fault = new Fault(3, 12_700, Kind.CONTAINER_PAUSE, 1, 9_500);

		assertThat(fault.describe()).isEqualTo("SIGSTOP container c2");
		assertThat(fault).hasToString("#3 at 12.7 s: SIGSTOP container c2, resumed after 9.5 s");
		assertThat(new Fault(4, 20_000, Kind.ADMIN_KILL, 0, 2_000))
			.hasToString("#4 at 20.0 s: SIGKILL leading admin, started again after 2.0 s");
		assertThat(new Fault(5, 30_000, Kind.CONTAINER_ZOOKEEPER_CUT, 2, 8_000))
			.hasToString("#5 at 30.0 s: ZooKeeper cut off from container c3, reconnected after 8.0 s");
		assertThat(new Fault(6, 40_000, Kind.BROKER_DISK_FULL, 1, 9_000))
			.hasToString("#6 at 40.0 s: full disk of broker, freed after 9.0 s");
		assertThat(new Fault(7, 50_000, Kind.BROKER_PAUSE, 0, 10_000))
			.hasToString("#7 at 50.0 s: SIGSTOP broker, resumed after 10.0 s");
		assertThat(Kind.ZOOKEEPER_PAUSE.describe()).isEqualTo("SIGSTOP ZooKeeper");
		assertThat(Kind.BROKER_DISK_FULL.pause()).isTrue();
		assertThat(Kind.BROKER_DISK_FULL.cut()).isFalse();
		assertThat(Kind.CONTAINER_ZOOKEEPER_CUT.diskFull()).isFalse();
	}

	@Test
	void everyKindOfFaultIsInAFullRun() {
		EnumSet<Kind> seen = EnumSet.noneOf(Kind.class);
		ChaosSchedule.plan(571547766L, Duration.ofMinutes(10), SESSION).forEach(fault -> seen.add(fault.kind()));

		assertThat(seen).containsExactlyInAnyOrder(Kind.values());
		assertThat(Kind.values()).hasSize(14);
	}
}
