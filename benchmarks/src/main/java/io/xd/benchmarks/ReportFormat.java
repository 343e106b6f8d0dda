package io.xd.benchmarks;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * Text helpers of {@link BenchReport}: escaping for HTML and SVG, and the two number formats, exact with thousands
 * separators for tables and compact ({@code 84.1M}) for axes and bar labels. Locale-independent.
 */
final class ReportFormat {

	static final String EM_DASH = "\u2014";

	private static final String[] PREFIXES = { "", "k", "M", "G", "T", "P", "E" };

	private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

	private static final MathContext THREE_DIGITS = new MathContext(3, RoundingMode.HALF_UP);

	private ReportFormat() {
	}

	/**
	 * Escapes text for an HTML or XML element or a quoted attribute. Characters that XML 1.0 forbids (most control
	 * characters, unpaired surrogates) are dropped, so that a standalone SVG always parses.
	 */
	static String escape(String text) {
		StringBuilder out = new StringBuilder(text.length() + 16);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '&' -> out.append("&amp;");
				case '<' -> out.append("&lt;");
				case '>' -> out.append("&gt;");
				case '"' -> out.append("&quot;");
				case '\'' -> out.append("&#39;");
				default -> {
					if (Character.isHighSurrogate(c) && i + 1 < text.length()
							&& Character.isLowSurrogate(text.charAt(i + 1))) {
						out.append(c).append(text.charAt(++i));
					}
					else if ((c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && !Character.isSurrogate(c)
							&& c != '\uFFFE' && c != '\uFFFF') {
						out.append(c);
					}
				}
			}
		}
		return out.toString();
	}

	/**
	 * The exact value with thousands separators: {@code 84,065,978}, {@code 12.5}; at most three decimals, or three
	 * significant digits below one ({@code 0.00123}).
	 */
	static String grouped(BigDecimal value) {
		DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
		format.setRoundingMode(RoundingMode.HALF_UP);
		BigDecimal abs = value.abs();
		if (abs.signum() != 0 && abs.compareTo(BigDecimal.ONE) < 0) {
			// digits after the point up to the third significant one
			format.setMaximumFractionDigits(abs.scale() - abs.precision() + 3);
		}
		else {
			format.setMaximumFractionDigits(3);
		}
		return format.format(value);
	}

	static String grouped(double value) {
		return Double.isFinite(value) ? grouped(BigDecimal.valueOf(value)) : String.valueOf(value);
	}

	/**
	 * The value to three significant digits with an SI prefix: {@code 84.1M}, {@code 13.1k}, {@code 950},
	 * {@code 0.25}.
	 */
	static String compact(double value) {
		if (!Double.isFinite(value)) {
			return String.valueOf(value);
		}
		if (value == 0) {
			return "0";
		}
		BigDecimal rounded = new BigDecimal(Math.abs(value)).round(THREE_DIGITS);
		int prefix = 0;
		// rounding first, so that 999,999 becomes 1M rather than 1000k
		while (prefix < PREFIXES.length - 1 && rounded.compareTo(THOUSAND) >= 0) {
			rounded = rounded.movePointLeft(3);
			prefix++;
		}
		return (value < 0 ? "-" : "") + rounded.stripTrailingZeros().toPlainString() + PREFIXES[prefix];
	}
}
