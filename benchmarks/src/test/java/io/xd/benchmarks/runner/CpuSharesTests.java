package io.xd.benchmarks.runner;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CpuSharesTests {

	@Test
	void readsUserSystemAndReapedChildrenTicksPastAProcessNameWithSpacesAndParentheses() {
		// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
		String stat = "4242 (post (gres) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 120 30 7 3 20 0 1 0 5000 1000 200";

		assertThat(CpuShares.ticks(stat)).isEqualTo(120 + 30 + 7 + 3);
	}

	@Test
	void readsTheMachineTotalWithoutGuestTicksAndCountsIoWaitAsIdle() {
		String procStat = """
				cpu  100 5 50 800 40 3 2 0 9 9
				cpu0 50 2 25 400 20 1 1 0 0 0
				intr 12345
				""";

		// user nice system idle iowait irq softirq steal; guest and guest_nice are already in user and nice
		assertThat(CpuShares.machine(procStat)).containsExactly(1000, 840);
	}

	@Test
	void sharesArePercentOfEveryCpuWithOtherAndIdleMakingUpTheRest() {
		CpuShares.Snapshot before = new CpuShares.Snapshot(10_000, 6_000, Map.of("broker", 100L, "XD", 200L));
		// 400 ticks pass on the machine (2 CPUs x 200): 100 idle, broker 60, XD 180, so 60 elsewhere
		CpuShares.Snapshot after = new CpuShares.Snapshot(10_400, 6_100, Map.of("broker", 160L, "XD", 380L));

		Map<String, Figure> shares = CpuShares.between(before, after);

		assertThat(shares.get("broker").get()).isCloseTo(15, within(1e-9));
		assertThat(shares.get("XD").get()).isCloseTo(45, within(1e-9));
		assertThat(shares.get(CpuShares.OTHER).get()).isCloseTo(15, within(1e-9));
		assertThat(shares.get(CpuShares.IDLE).get()).isCloseTo(25, within(1e-9));
	}

	@Test
	void aCarvedThreadIsReportedApartFromItsProcess() {
		CpuShares.Snapshot before = new CpuShares.Snapshot(10_000, 6_000, Map.of("XD", 200L)).carve("XD", "thread", 0);
		CpuShares.Snapshot after = new CpuShares.Snapshot(10_400, 6_100, Map.of("XD", 380L)).carve("XD", "thread", 80);

		Map<String, Figure> shares = CpuShares.between(before, after);

		assertThat(shares.keySet()).containsExactly("XD", "thread", CpuShares.OTHER, CpuShares.IDLE);
		assertThat(shares.get("XD").get()).isCloseTo(25, within(1e-9));
		assertThat(shares.get("thread").get()).isCloseTo(20, within(1e-9));
	}

	@Test
	void watchesTheTimeOfANamedThreadAfterItEnded() throws Exception {
		String name = "spinning-thread-of-this-test";
		// what /proc lists as the thread's name: its first 15 bytes
		String comm = name.substring(0, 15);
		CountDownLatch spun = new CountDownLatch(1);
		CountDownLatch end = new CountDownLatch(1);
		Thread spinner = new Thread(() -> {
			// 300 ms of the thread's own CPU time, however busy the machine is: about 30 ticks at Linux's 100 per second
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			while (threads.getCurrentThreadCpuTime() < 300_000_000L) {
				Thread.onSpinWait();
			}
			spun.countDown();
			awaitQuietly(end);
		}, name);
		try (CpuShares.ThreadWatch watch = new CpuShares.ThreadWatch(ProcessHandle.current().pid(), name)) {
			spinner.start();
			assertThat(spun.await(60, TimeUnit.SECONDS)).isTrue();
			long alive = watch.ticks();
			end.countDown();
			spinner.join();
			for (int i = 0; i < 100 && threadNamed(comm); i++) {
				Thread.sleep(20);
			}

			assertThat(threadNamed(comm)).as("the spinner is gone from /proc").isFalse();

			assertThat(alive).isGreaterThanOrEqualTo(20);
			assertThat(watch.ticks()).isGreaterThanOrEqualTo(alive);
		}
	}

	private static boolean threadNamed(String comm) throws IOException {
		try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
			return tasks.anyMatch(task -> {
				try {
					return Files.readString(task.resolve("comm")).strip().equals(comm);
				}
				catch (IOException ex) {
					return false;
				}
			});
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void noTimePassedGivesFiguresWithAReasonNotZeros() {
		CpuShares.Snapshot same = new CpuShares.Snapshot(10_000, 6_000, Map.of("XD", 1L));

		assertThat(CpuShares.between(same, same).values()).allSatisfy(share -> assertThat(share.isPresent()).isFalse());
	}

	@Test
	void measuresThisProcessBusyBetweenTwoSnapshots() throws IOException {
		Map<String, List<Long>> groups = Map.of("self", List.of(ProcessHandle.current().pid()), "none", List.of());
		CpuShares.Snapshot before = CpuShares.take(groups);
		long spin = System.nanoTime() + 200_000_000L;
		long sum = 0;
		while (System.nanoTime() < spin) {
			sum += System.nanoTime() % 7;
		}
		CpuShares.Snapshot after = CpuShares.take(groups);

		assertThat(sum).isPositive();
		assertThat(after.groups().get("self")).isGreaterThan(before.groups().get("self"));
		assertThat(CpuShares.between(before, after).get("self").get()).isPositive();
		assertThat(after.groups().get("none")).isZero();
	}
}
