package io.xd.modules.internal;

/**
 * What a module jar may expand to, so that a small upload cannot fill a disk or a heap (a zip bomb).
 *
 * @param maxEntries the most entries a jar may hold
 * @param maxExpandedBytes the most bytes all entries together may expand to
 * @param maxRatio the highest expansion ratio of an entry that expands to more than {@link #RATIO_THRESHOLD} bytes
 */
public record JarLimits(int maxEntries, long maxExpandedBytes, int maxRatio) {

	/** Entries smaller than this (expanded) are never refused for their ratio: tiny files compress very well. */
	public static final long RATIO_THRESHOLD = 1024 * 1024;

	/** 20 000 entries, 512 MB expanded, ratio 200. */
	public static final JarLimits DEFAULT = new JarLimits(20_000, 512L * 1024 * 1024, 200);

	public JarLimits {
		if (maxEntries < 1 || maxExpandedBytes < 1 || maxRatio < 1) {
			throw new IllegalArgumentException("Jar limits must be positive");
		}
	}
}
