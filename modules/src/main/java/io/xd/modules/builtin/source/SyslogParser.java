package io.xd.modules.builtin.source;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses one syslog line, RFC 5424 or RFC 3164 (recognised from the line itself), into an ordered map of its parts:
 * {@code rfc}, {@code facility}, {@code severity}, {@code timestamp} (as written), {@code host}, {@code app},
 * {@code procId}, {@code msgId} and {@code structuredData} (RFC 5424: SD-ID to parameter map) and {@code message}.
 * A nil value ({@code -}) is left out. The parser walks the line once, with no backtracking regular expression over
 * user input, so a hostile line costs time linear in its length.
 */
final class SyslogParser {

	/** RFC 3164's timestamp, {@code Mmm dd hh:mm:ss}, the day padded with a space. Anchored, fixed length. */
	private static final Pattern BSD_TIMESTAMP = Pattern
		.compile("(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-3]\\d \\d\\d:\\d\\d:\\d\\d");

	private static final int BSD_TIMESTAMP_LENGTH = 15;

	/** The longest tag taken as an app name in RFC 3164 (the RFC says 32; real senders go a little over). */
	private static final int MAX_TAG = 48;

	/** {@code app[pid]: } or {@code app: }, matched against at most the first 62 characters of the content. */
	private static final Pattern TAG = Pattern
		.compile("([^\\s\\[\\]:]{1," + MAX_TAG + "})(?:\\[([^\\s\\]]{1,10})\\])?: ");

	private final String line;

	private int pos;

	private SyslogParser(String line) {
		this.line = line;
	}

	/**
	 * The parts of {@code line}, trailing line ends and NULs removed.
	 * @throws IllegalArgumentException saying what is wrong where, when the line is neither RFC 5424 nor RFC 3164
	 */
	static Map<String, Object> parse(String line) {
		return new SyslogParser(stripEnd(line)).parse();
	}

	private Map<String, Object> parse() {
		Map<String, Object> parts = new LinkedHashMap<>();
		int priority = priority();
		int versionEnd = this.pos;
		while (versionEnd < this.line.length() && Character.isDigit(this.line.charAt(versionEnd))) {
			versionEnd++;
		}
		boolean rfc5424 = versionEnd > this.pos && versionEnd < this.line.length()
				&& this.line.charAt(versionEnd) == ' ';
		parts.put("rfc", rfc5424 ? "5424" : "3164");
		parts.put("facility", priority / 8);
		parts.put("severity", priority % 8);
		if (rfc5424) {
			parts.put("version", Integer.parseInt(this.line.substring(this.pos, versionEnd)));
			this.pos = versionEnd + 1;
			parse5424(parts);
		}
		else {
			parse3164(parts);
		}
		return parts;
	}

	private int priority() {
		if (this.line.isEmpty() || this.line.charAt(0) != '<') {
			throw new IllegalArgumentException("no <priority> at the start of the line");
		}
		int close = this.line.indexOf('>');
		if (close < 2 || close > 4) {
			throw new IllegalArgumentException("the <priority> is not 1 to 3 digits");
		}
		int priority;
		try {
			priority = Integer.parseInt(this.line.substring(1, close));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("the <priority> is not a number");
		}
		if (priority < 0 || priority > 191) {
			throw new IllegalArgumentException("the <priority> " + priority + " is not between 0 and 191");
		}
		this.pos = close + 1;
		return priority;
	}

	private void parse5424(Map<String, Object> parts) {
		putUnlessNil(parts, "timestamp", field("TIMESTAMP"));
		putUnlessNil(parts, "host", field("HOSTNAME"));
		putUnlessNil(parts, "app", field("APP-NAME"));
		putUnlessNil(parts, "procId", field("PROCID"));
		putUnlessNil(parts, "msgId", field("MSGID"));
		parts.put("structuredData", structuredData());
		if (this.pos < this.line.length()) {
			if (this.line.charAt(this.pos) != ' ') {
				throw new IllegalArgumentException("no space after STRUCTURED-DATA at position " + this.pos);
			}
			String message = this.line.substring(this.pos + 1);
			parts.put("message", message.startsWith("\uFEFF") ? message.substring(1) : message);
		}
		else {
			parts.put("message", "");
		}
	}

	/** A space-terminated header field of RFC 5424; consumes the space. */
	private String field(String name) {
		int space = this.line.indexOf(' ', this.pos);
		if (space < 0 || space == this.pos) {
			throw new IllegalArgumentException("RFC 5424 line without " + name + " at position " + this.pos);
		}
		String value = this.line.substring(this.pos, space);
		this.pos = space + 1;
		return value;
	}

	private Map<String, Map<String, String>> structuredData() {
		Map<String, Map<String, String>> data = new LinkedHashMap<>();
		if (this.line.startsWith("-", this.pos)) {
			this.pos++;
			return data;
		}
		if (!this.line.startsWith("[", this.pos)) {
			throw new IllegalArgumentException("STRUCTURED-DATA is neither '-' nor '[...]' at position " + this.pos);
		}
		while (this.line.startsWith("[", this.pos)) {
			this.pos++;
			String id = name(" ]", "SD-ID");
			Map<String, String> params = new LinkedHashMap<>();
			while (this.line.startsWith(" ", this.pos)) {
				this.pos++;
				String param = name("=", "PARAM-NAME");
				this.pos++;
				params.put(param, quoted());
			}
			expect(']');
			data.put(id, params);
		}
		return data;
	}

	private String name(String ends, String what) {
		int start = this.pos;
		while (this.pos < this.line.length() && ends.indexOf(this.line.charAt(this.pos)) < 0) {
			this.pos++;
		}
		if (this.pos == start || this.pos >= this.line.length()) {
			throw new IllegalArgumentException("a malformed " + what + " at position " + start);
		}
		return this.line.substring(start, this.pos);
	}

	private String quoted() {
		expect('"');
		StringBuilder value = new StringBuilder();
		while (this.pos < this.line.length()) {
			char c = this.line.charAt(this.pos++);
			if (c == '"') {
				return value.toString();
			}
			if (c == '\\' && this.pos < this.line.length() && "\"\\]".indexOf(this.line.charAt(this.pos)) >= 0) {
				c = this.line.charAt(this.pos++);
			}
			value.append(c);
		}
		throw new IllegalArgumentException("a PARAM-VALUE without its closing quote");
	}

	private void expect(char c) {
		if (this.pos >= this.line.length() || this.line.charAt(this.pos) != c) {
			throw new IllegalArgumentException("expected '" + c + "' at position " + this.pos);
		}
		this.pos++;
	}

	private void parse3164(Map<String, Object> parts) {
		int end = this.pos + BSD_TIMESTAMP_LENGTH;
		if (end > this.line.length()
				|| !BSD_TIMESTAMP.matcher(this.line.substring(this.pos, end)).matches()) {
			throw new IllegalArgumentException("neither an RFC 5424 version nor an RFC 3164 timestamp "
					+ "(Mmm dd hh:mm:ss) after the <priority>");
		}
		parts.put("timestamp", this.line.substring(this.pos, end));
		this.pos = end;
		expect(' ');
		int space = this.line.indexOf(' ', this.pos);
		if (space <= this.pos) {
			throw new IllegalArgumentException("RFC 3164 line without a host after the timestamp");
		}
		parts.put("host", this.line.substring(this.pos, space));
		String content = this.line.substring(space + 1);
		Matcher tag = tag(content);
		if (tag != null) {
			parts.put("app", tag.group(1));
			if (tag.group(2) != null) {
				parts.put("procId", tag.group(2));
			}
			content = content.substring(tag.end());
		}
		parts.put("message", content);
	}

	/** {@code app[pid]: } or {@code app: } at the start of the content, or null (a line with no tag). */
	private static Matcher tag(String content) {
		int colon = content.indexOf(": ");
		if (colon < 1 || colon > MAX_TAG + 12) {
			return null;
		}
		Matcher matcher = TAG.matcher(content.substring(0, colon + 2));
		return matcher.matches() ? matcher : null;
	}

	private static void putUnlessNil(Map<String, Object> parts, String key, String value) {
		if (!"-".equals(value)) {
			parts.put(key, value);
		}
	}

	private static String stripEnd(String line) {
		int end = line.length();
		while (end > 0 && "\r\n\0".indexOf(line.charAt(end - 1)) >= 0) {
			end--;
		}
		return line.substring(0, end);
	}
}
