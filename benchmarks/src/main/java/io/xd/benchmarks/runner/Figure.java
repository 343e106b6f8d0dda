package io.xd.benchmarks.runner;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Objects;

/**
 * One measured figure, or the reason it could not be computed. A missing figure is never 0: it is written to JSON
 * as {@code null} (with its reason among the suite's notes) and printed as {@code n/a (reason)}.
 *
 * @param value the figure, or {@code null} when not computed
 * @param reason why there is no figure, or {@code null} when there is one
 */
record Figure(Double value, String reason) {

	Figure {
		if ((value == null) == (reason == null)) {
			throw new IllegalArgumentException("a figure has either a value or a reason, not both or neither");
		}
		if (value != null && (value.isNaN() || value.isInfinite())) {
			throw new IllegalArgumentException("not a figure: " + value);
		}
	}

	static Figure of(double value) {
		return new Figure(value, null);
	}

	static Figure na(String reason) {
		return new Figure(null, Objects.requireNonNull(reason));
	}

	boolean isPresent() {
		return this.value != null;
	}

	/** The value; only call when {@link #isPresent()}. */
	double get() {
		if (this.value == null) {
			throw new IllegalStateException("n/a (" + this.reason + ")");
		}
		return this.value;
	}

	/** This figure times a factor (a unit conversion), or the same n/a. */
	Figure times(double factor) {
		return isPresent() ? of(this.value * factor) : this;
	}

	/** {@code this / divisor}; n/a when either is n/a or the divisor is 0. */
	Figure dividedBy(Figure divisor) {
		if (!isPresent()) {
			return this;
		}
		if (!divisor.isPresent()) {
			return divisor;
		}
		return divisor.get() == 0 ? na("division by zero") : of(this.value / divisor.get());
	}

	/** The larger of two figures; a present one wins over n/a. */
	Figure max(Figure other) {
		if (!isPresent()) {
			return other;
		}
		return (!other.isPresent() || this.value >= other.get()) ? this : other;
	}

	/** The value rounded to {@code decimals} places, for JSON; {@code null} when n/a. */
	BigDecimal rounded(int decimals) {
		return isPresent() ? BigDecimal.valueOf(this.value).setScale(decimals, RoundingMode.HALF_UP) : null;
	}

	/** {@code String.format} of the value with {@code format}, or {@code n/a (reason)}. */
	String format(String format) {
		return isPresent() ? String.format(Locale.ROOT, format, this.value) : "n/a (" + this.reason + ")";
	}

	@Override
	public String toString() {
		return format("%.1f");
	}
}
