package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The CPU time of groups of processes, from Linux's {@code /proc}, as shares of the whole machine between two
 * snapshots. A group is named by its root processes; it counts each root and every live descendant (user and system
 * time), and the time of the children each of them has already reaped ({@code cutime}, {@code cstime}), so that a
 * PostgreSQL backend that exits between two snapshots still counts, through its postmaster. The machine's time is
 * the {@code cpu} line of {@code /proc/stat}: a share of 100% is every CPU busy for the whole interval. Whatever is
 * busy outside the groups (the benchmark runner, other processes, the kernel's interrupt work) is {@link #OTHER}.
 */
final class CpuShares {

	/** The share of busy CPU outside every group. */
	static final String OTHER = "other";

	/** The share of idle CPU (idle and I/O wait). */
	static final String IDLE = "idle";

	private CpuShares() {
	}

	/**
	 * The clock ticks of every group and of the machine at one moment.
	 *
	 * @param machineTotal every tick of every CPU so far
	 * @param machineIdle the idle and I/O wait ticks so far
	 * @param groups each group's ticks so far
	 */
	record Snapshot(long machineTotal, long machineIdle, Map<String, Long> groups) {

		/**
		 * A copy in which group {@code from} gives {@code ticks} of its own to a new group {@code part}, placed right
		 * after it: to report a thread apart from the rest of its process.
		 */
		Snapshot carve(String from, String part, long ticks) {
			Map<String, Long> carved = new LinkedHashMap<>();
			this.groups.forEach((name, value) -> {
				carved.put(name, name.equals(from) ? value - ticks : value);
				if (name.equals(from)) {
					carved.put(part, ticks);
				}
			});
			return new Snapshot(this.machineTotal, this.machineIdle, carved);
		}
	}

	/**
	 * The CPU ticks of the threads of one process whose name (as {@code /proc} keeps it: the first 15 bytes) equals
	 * that of a given thread name, read every 100 ms on a thread of its own until closed, so that the time of a
	 * thread that has ended by then is kept.
	 */
	static final class ThreadWatch implements AutoCloseable {

		private final Path tasks;

		private final String comm;

		private final Map<String, Long> seen = new ConcurrentHashMap<>();

		private final Thread poller;

		private volatile boolean closed;

		ThreadWatch(long pid, String threadName) {
			this.tasks = Path.of("/proc", Long.toString(pid), "task");
			byte[] name = threadName.getBytes(StandardCharsets.UTF_8);
			this.comm = new String(name, 0, Math.min(15, name.length), StandardCharsets.UTF_8);
			this.poller = new Thread(this::poll, "cpu-thread-watch");
			this.poller.setDaemon(true);
			this.poller.start();
		}

		private void poll() {
			while (!this.closed) {
				read();
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		private void read() {
			try (Stream<Path> threads = Files.list(this.tasks)) {
				for (Path thread : threads.toList()) {
					try {
						String stat = Files.readString(thread.resolve("stat"));
						int open = stat.indexOf('(');
						int close = stat.lastIndexOf(')');
						if (open >= 0 && close > open && stat.substring(open + 1, close).equals(this.comm)) {
							this.seen.merge(thread.getFileName().toString(), CpuShares.ticks(stat), Math::max);
						}
					}
					catch (IOException ex) {
						// the thread ended since the listing: its last reading stands
					}
				}
			}
			catch (IOException ex) {
				// the process is gone
			}
		}

		/** The ticks of every matching thread seen so far, each at its last reading. */
		long ticks() {
			read();
			return this.seen.values().stream().mapToLong(Long::longValue).sum();
		}

		@Override
		public void close() throws InterruptedException {
			this.closed = true;
			this.poller.interrupt();
			this.poller.join();
		}
	}

	/** Reads {@code /proc} now, for groups given by name and root process ids (a group without roots reads 0). */
	static Snapshot take(Map<String, List<Long>> groups) throws IOException {
		long[] machine = machine(Files.readString(Path.of("/proc/stat")));
		Map<String, Long> ticks = new LinkedHashMap<>();
		groups.forEach((name, roots) -> ticks.put(name, roots.stream().mapToLong(CpuShares::treeTicks).sum()));
		return new Snapshot(machine[0], machine[1], ticks);
	}

	/**
	 * Each group's share of the machine between two snapshots, in percent, then {@link #OTHER} and {@link #IDLE}; n/a
	 * figures when no tick passed between them.
	 */
	static Map<String, Figure> between(Snapshot before, Snapshot after) {
		Map<String, Figure> shares = new LinkedHashMap<>();
		long total = after.machineTotal() - before.machineTotal();
		if (total <= 0) {
			Figure none = Figure.na("no CPU time passed between the snapshots");
			before.groups().keySet().forEach(name -> shares.put(name, none));
			shares.put(OTHER, none);
			shares.put(IDLE, none);
			return shares;
		}
		long idle = after.machineIdle() - before.machineIdle();
		long grouped = 0;
		for (String name : before.groups().keySet()) {
			long ticks = Math.max(0, after.groups().getOrDefault(name, 0L) - before.groups().get(name));
			grouped += ticks;
			shares.put(name, percent(ticks, total));
		}
		shares.put(OTHER, percent(Math.max(0, total - idle - grouped), total));
		shares.put(IDLE, percent(idle, total));
		return shares;
	}

	private static Figure percent(long ticks, long total) {
		return Figure.of(100.0 * ticks / total);
	}

	/**
	 * The {@code cpu} line of {@code /proc/stat}: {@code {total, idle}} ticks, idle counting I/O wait. The guest
	 * fields are left out of the total: the kernel already counts them in user and nice.
	 */
	static long[] machine(String procStat) {
		for (String line : procStat.split("\n")) {
			String[] fields = line.strip().split("\\s+");
			if (fields[0].equals("cpu")) {
				long total = 0;
				for (int i = 1; i < Math.min(fields.length, 9); i++) {
					total += Long.parseLong(fields[i]);
				}
				long idle = Long.parseLong(fields[4]) + ((fields.length > 5) ? Long.parseLong(fields[5]) : 0);
				return new long[] { total, idle };
			}
		}
		throw new IllegalArgumentException("no cpu line in /proc/stat");
	}

	/**
	 * {@code utime + stime + cutime + cstime} of one {@code /proc/<pid>/stat} line. The process name, field 2, is in
	 * parentheses and may itself hold spaces and parentheses, so the fields are counted from the last {@code ')'}.
	 */
	static long ticks(String stat) {
		int close = stat.lastIndexOf(')');
		if (close < 0) {
			throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
		}
		// after the name: field 3 (state) is index 0, so utime (field 14) is index 11, cstime (field 17) index 14
		String[] fields = stat.substring(close + 1).strip().split("\\s+");
		long ticks = 0;
		for (int i = 11; i <= 14; i++) {
			ticks += Long.parseLong(fields[i]);
		}
		return ticks;
	}

	/** The ticks of a process and its live descendants; 0 for a process that is gone. */
	private static long treeTicks(long pid) {
		long sum = processTicks(pid);
		sum += ProcessHandle.of(pid)
			.map(handle -> handle.descendants().mapToLong(child -> processTicks(child.pid())).sum())
			.orElse(0L);
		return sum;
	}

	private static long processTicks(long pid) {
		try {
			return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
		}
		catch (IOException ex) {
			return 0; // exited since it was listed; its parent has its ticks once it reaps it
		}
	}
}
