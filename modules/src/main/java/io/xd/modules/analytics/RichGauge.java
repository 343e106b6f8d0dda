package io.xd.modules.analytics;

/**
 * A rich gauge's state: the latest value, and over every value recorded, their average, maximum, minimum and count.
 *
 * @param value the latest value
 * @param alpha {@code -1} when {@code average} is the arithmetic mean of every value; otherwise the smoothing factor
 * (0 &lt; alpha &lt; 1) of an exponential moving average: each new value {@code v} makes the average
 * {@code alpha * v + (1 - alpha) * average}
 * @param average the mean or the moving average
 * @param max the largest value recorded
 * @param min the smallest value recorded
 * @param count how many values were recorded
 */
public record RichGauge(double value, double alpha, double average, double max, double min, long count) {

	/**
	 * Checks a smoothing factor: {@code -1} (arithmetic mean) or strictly between 0 and 1.
	 * @throws IllegalArgumentException otherwise
	 */
	public static double checkAlpha(double alpha) {
		if (alpha != -1 && !(alpha > 0 && alpha < 1)) {
			throw new IllegalArgumentException("alpha must be -1 (the arithmetic mean) or between 0 and 1 (exclusive), "
					+ "not " + alpha);
		}
		return alpha;
	}

	/** The state of a gauge whose first value is {@code value}. */
	public static RichGauge first(double value, double alpha) {
		return new RichGauge(value, alpha, value, value, value, 1);
	}

	/**
	 * This state after one more value. The {@code alpha} given applies from now on (a gauge whose sink was redeployed
	 * with another alpha goes on from its average).
	 */
	public RichGauge record(double newValue, double newAlpha) {
		double newAverage = (newAlpha < 0) ? this.average + (newValue - this.average) / (this.count + 1)
				: newAlpha * newValue + (1 - newAlpha) * this.average;
		return new RichGauge(newValue, newAlpha, newAverage, Math.max(this.max, newValue),
				Math.min(this.min, newValue), this.count + 1);
	}
}
