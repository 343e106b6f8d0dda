package io.xd.server;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * Generates malformed HTTP requests as raw bytes, from a seeded {@link Random}: random methods; request targets with
 * path variables ZooKeeper cannot store, bad percent-escapes, control characters and over-long names; broken and
 * oversized headers; content types with missing boundaries and unknown charsets; bodies that are invalid UTF-8,
 * broken JSON, broken form encoding or broken chunking. Every request is complete (never a declared length longer
 * than what is sent), so that a server answers at once rather than waiting for more.
 * <p>
 * A seeded generator rather than jqwik, the usual property-testing engine: jqwik runs on the JUnit Platform 1.x and
 * has no release for the JUnit 6 platform this build uses.
 */
final class MalformedRequestGenerator {

	private static final String[] METHODS = { "GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH",
			"OPTIONS", "HEAD", "TRACE", "FOO", "get", "G{T", "CONNECT", "PROPFIND" };

	private static final String[] TEMPLATES = { "/streams/definitions/{}", "/streams/definitions/{}",
			"/streams/deployments/{}", "/streams/deployments/{}", "/modules/{}/{}", "/modules/source/{}",
			"/runtime/modules?containerId={}&moduleId={}", "/streams/definitions?page={}&size={}", "/{}",
			"/actuator/{}", "/streams/{}/definitions", "/error", "/error/{}", "/streams/definitions",
			"/streams/deployments", "/modules?type={}", "/runtime/containers?page={}" };

	/** Path variables that are no stream name, many of them no ZooKeeper path either. */
	private static final String[] SEGMENTS = { "..", "%2E%2E", ".", "%2F", "a%2Fb", "a%2F..%2Fb", "a%5Cb", "%00",
			"a%00b", "%0A", "a%0Db", "%ZZ", "%", "%E9", "%C3%28", "%ED%A0%80", "%ED%B0%80a", "%F0%9F%98%80", "%EF%BF%BF",
			"a;b", "a;jsessionid=1", "%3B", "a%20b", "%09", "%7F", "%FF%FE", "%E2%80%8B", "$", "_", "-x", "1x",
			"zookeeper", "xd", "s%2F..", "%25", "%252F", "a%3Ab", "a:b", "a@b", "a!b", "~", "a.b", "%2e", "\u00e9",
			"%C0%AE%C0%AE", "%u002e", "&", "=", "+", "a+b" };

	private static final String[] QUERIES = { "", "", "", "?page=%ZZ", "?size=-1", "?page=99999999999", "?a=%",
			"?%=&&=", "?page=1&page=x", "?size=0", "?page=%ED%A0%80", "?x=%E9", "?name=%00&definition=time%7Clog",
			"?properties=module.*.count%3Dx", "?deploy=maybe", "?%ZZ", "?" };

	private static final String[] CONTENT_TYPES = { null, "application/x-www-form-urlencoded",
			"application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8",
			"application/x-www-form-urlencoded; charset=nope", "application/x-www-form-urlencoded; charset=utf-16",
			"application/x-www-form-urlencoded; charset=ISO-8859-1", "application/x-www-form-urlencoded; charset=\"\"",
			"application/x-www-form-urlencoded; charset=\"utf-8", "application/json", "application/json",
			"application/json; charset=bogus", "application/json; charset=utf-32", "application/vnd.xd+json",
			"multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=xyz",
			"multipart/mixed", "text/plain", "application/xml", "application/octet-stream", "a/b/c", "", ";;;", "*/*",
			"text/plain; charset=\u00ff", "application/json;;charset=utf-8", "application/x-www-form-urlencoded;q",
			"image/png" };

	private static final String[] EXTRA_HEADERS = { "Accept: text/html", "Accept: application/xml", "Accept: ;;",
			"Accept: application/json;q=x", "Accept-Charset: nope", "Content-Encoding: gzip", "Content-Encoding: br",
			"Expect: 100-continue", "Expect: nonsense", "Range: bytes=-1-2", "If-Match: \"", "Cookie: a=%ZZ",
			"Origin: null", "X-Forwarded-For: ::::", "Authorization: Basic %%%", "Accept-Language: \u00ff\u00fe",
			"X-Ctl: a\u0001b", "NoColonHere", " leading-space: x", "X-Fold: a\r\n folded", "Host: second",
			"Content-Length: abc", "Transfer-Encoding: gzip", "Transfer-Encoding: chunked, gzip", "Upgrade: h2c",
			"Connection: Upgrade, HTTP2-Settings" };

	private static final String[] DEFINITIONS = { "time | log", "time |", "| log", "time | | log", "time --a='x | log",
			"tap:stream:nope > log", "queue:> log", "time | nope", "time --fixedDelay=abc | log", "\u0000", "\ud800",
			"time --format='\udc00' | log", "a".repeat(70) + " | log", "time | log --level", "time --a=1 --a=2 | log",
			"x".repeat(70 * 1024) };

	private MalformedRequestGenerator() {
	}

	/** One malformed request: its method, and the bytes to send. */
	record Generated(String method, byte[] bytes) {

		String describe() {
			StringBuilder text = new StringBuilder();
			for (byte b : this.bytes) {
				int c = b & 0xff;
				text.append((c >= 0x20 && c < 0x7f) ? String.valueOf((char) c) : String.format(Locale.ROOT, "\\x%02x", c));
			}
			return text.toString();
		}
	}

	/**
	 * A new malformed request, drawn from {@code random}.
	 * @param stream an existing stream, which some requests name (and may deploy, undeploy or destroy); no request
	 *     deletes a whole collection (every stream or every deployment)
	 * @param authorization the {@code Authorization} header of a user allowed everything, sent with most requests
	 *     (so that the API, not its access check, answers them)
	 */
	static Generated generate(Random random, String stream, String authorization) {
		String method = pick(random, METHODS);
		String target = pick(random, TEMPLATES);
		if (method.equals("DELETE") && !target.substring(0, (target + "?").indexOf('?')).contains("{}")) {
			// DELETE of a collection is valid (destroy or undeploy all) and would take other tests' streams with it
			method = "PATCH";
		}
		while (target.contains("{}")) {
			target = target.replaceFirst("\\{\\}", Matcher.quoteReplacement(segment(random, stream)));
		}
		if (!target.contains("?")) {
			target += pick(random, QUERIES);
		}
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		write(head, method + " ");
		byte[] targetBytes = target.getBytes(StandardCharsets.UTF_8);
		if (random.nextInt(8) == 0) {
			// a raw byte the URL grammar forbids: a control character, a space, '{', '|', '\', '"' or a non-ASCII byte
			byte[] raw = { 0x01, 0x7f, ' ', '{', '|', '\\', '"', (byte) 0xff, (byte) 0xc3, '<', '^', '`', 0x09 };
			int at = 1 + random.nextInt(targetBytes.length);
			byte[] mangled = new byte[targetBytes.length + 1];
			System.arraycopy(targetBytes, 0, mangled, 0, at);
			mangled[at] = raw[random.nextInt(raw.length)];
			System.arraycopy(targetBytes, at, mangled, at + 1, targetBytes.length - at);
			targetBytes = mangled;
		}
		head.writeBytes(targetBytes);
		write(head, (random.nextInt(40) == 0) ? pick(random, new String[] { " HTTP/1.2", " HTTP/2.0", " HTTP/9.9",
				" HTTP/1", " http/1.1", "" }) : " HTTP/1.1");
		if (random.nextInt(30) != 0) {
			write(head, "\r\nHost: 127.0.0.1");
		}
		if (random.nextInt(20) != 0) {
			write(head, "\r\nAuthorization: " + authorization);
		}
		byte[] body = body(random);
		String contentType = pick(random, CONTENT_TYPES);
		if (contentType != null) {
			write(head, "\r\nContent-Type: " + contentType);
		}
		int extras = (random.nextInt(3) == 0) ? 1 + random.nextInt(3) : 0;
		for (int i = 0; i < extras; i++) {
			write(head, "\r\n" + pick(random, EXTRA_HEADERS));
		}
		switch (random.nextInt(50)) {
			case 0 -> write(head, "\r\nX-Big: " + "a".repeat(9_000 + random.nextInt(20_000)));
			case 1 -> {
				for (int i = 0; i < 101 + random.nextInt(100); i++) {
					write(head, "\r\nX-Many-" + i + ": " + i);
				}
			}
			case 2 -> write(head, "\r\nX-Nul: a\u0000b");
			default -> {
			}
		}
		boolean chunked = body.length > 0 && random.nextInt(6) == 0;
		if (chunked) {
			write(head, "\r\nTransfer-Encoding: chunked");
			body = chunk(random, body);
		}
		else if (body.length > 0 || random.nextBoolean()) {
			// never more than is sent, or the server would wait for the rest
			int declared = (random.nextInt(10) == 0) ? random.nextInt(body.length + 1) : body.length;
			write(head, "\r\nContent-Length: " + declared);
		}
		return new Generated(method.trim(), RawHttp.request(head.toString(StandardCharsets.ISO_8859_1), body));
	}

	private static String segment(Random random, String stream) {
		return switch (random.nextInt(12)) {
			case 0 -> "n".repeat(65 + random.nextInt(300));
			case 1 -> "a" + pick(random, SEGMENTS) + "b";
			case 2 -> pick(random, SEGMENTS) + pick(random, SEGMENTS);
			case 3 -> stream;
			default -> pick(random, SEGMENTS);
		};
	}

	private static byte[] body(Random random) {
		return switch (random.nextInt(10)) {
			case 0 -> new byte[0];
			case 1, 2, 3 -> formBody(random);
			case 4, 5 -> jsonBody(random);
			case 6 -> multipartBody(random);
			case 7 -> {
				byte[] bytes = new byte[random.nextInt(300)];
				random.nextBytes(bytes);
				yield bytes;
			}
			case 8 -> (random.nextInt(20) == 0) ? formField("definition", "x".repeat(3 << 20))
					: formField("name", pick(random, SEGMENTS));
			default -> concat(formBody(random), new byte[] { (byte) 0xc3, '&', (byte) 0xed, (byte) 0xa0, (byte) 0x80 });
		};
	}

	private static byte[] formBody(Random random) {
		ByteArrayOutputStream form = new ByteArrayOutputStream();
		String[] names = { "name", "definition", "deploy", "properties", "page", "", "%ZZ", "n%00" };
		int fields = 1 + random.nextInt(4);
		for (int i = 0; i < fields; i++) {
			if (i > 0) {
				form.write('&');
			}
			write(form, pick(random, names) + "=");
			switch (random.nextInt(5)) {
				case 0 -> write(form, pick(random, SEGMENTS));
				case 1 -> write(form, URLEncoder.encode(pick(random, DEFINITIONS), StandardCharsets.UTF_8));
				case 2 -> form.writeBytes(new byte[] { (byte) 0xff, (byte) 0xfe, 'x', (byte) 0xc3 });
				case 3 -> write(form, "module.*.count%3D" + pick(random, SEGMENTS));
				default -> write(form, "false");
			}
		}
		if (random.nextInt(4) != 0) {
			write(form, "&deploy=false");
		}
		return form.toByteArray();
	}

	private static byte[] jsonBody(Random random) {
		String[] bodies = { "{", "[]", "null", "42", "\"x\"", "{\"name\":", "{'a':1}", "{\"a\":1} trailing",
				"{\"name\":\"\\ud800\",\"definition\":\"time | log\",\"deploy\":false}",
				"{\"name\":\"ok\",\"definition\":\"time --format='\\udc00' | log\",\"deploy\":false}",
				"{\"name\":{\"a\":1},\"definition\":\"time | log\"}", "{\"properties\":[1]}",
				"{\"name\":\"" + "n".repeat(100) + "\",\"definition\":\"time | log\",\"deploy\":false}",
				"{\"name\":\"a\\u0000b\",\"definition\":\"time | log\",\"deploy\":false}",
				"{\"name\":\"z\",\"definition\":\"time | log\",\"deploy\":\"perhaps\"}", "{\"a\":" + "[".repeat(3000),
				"{\"properties\":\"module.*.count=x\"}" };
		byte[] json = pick(random, bodies).getBytes(StandardCharsets.UTF_8);
		if (random.nextInt(4) == 0) {
			json = concat(json, new byte[] { (byte) 0xc0, (byte) 0x80, (byte) 0xed, (byte) 0xa0, (byte) 0x80 });
		}
		return json;
	}

	private static byte[] multipartBody(Random random) {
		String[] bodies = { "--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n%ZZ\r\n--xyz--\r\n",
				"--xyz\r\nContent-Disposition: form-data; name=\"definition\"\r\n\r\ntime | log\r\n--xyz",
				"--xyz\r\n\r\n\r\n", "no boundary here", "--xyz\r\nContent-Disposition: form-data\r\n\r\nx\r\n--xyz--",
				"--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../x\"\r\n\r\n\u0000\r\n--xyz--" };
		return pick(random, bodies).getBytes(StandardCharsets.UTF_8);
	}

	/** The body in chunks, valid or broken (bad sizes, sizes over what follows); always terminated, never left open. */
	private static byte[] chunk(Random random, byte[] body) {
		ByteArrayOutputStream chunked = new ByteArrayOutputStream();
		switch (random.nextInt(4)) {
			case 0 -> write(chunked, "zz\r\n");
			case 1 -> write(chunked, "-5\r\nabc\r\n0\r\n\r\n");
			default -> {
				int at = 0;
				while (at < body.length) {
					int size = Math.min(body.length - at, 1 + random.nextInt(64));
					write(chunked, Integer.toHexString(size) + "\r\n");
					chunked.write(body, at, size);
					write(chunked, "\r\n");
					at += size;
				}
				write(chunked, "0\r\n\r\n");
			}
		}
		return chunked.toByteArray();
	}

	private static byte[] formField(String name, String value) {
		return (name + "=" + value).getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] all = new byte[a.length + b.length];
		System.arraycopy(a, 0, all, 0, a.length);
		System.arraycopy(b, 0, all, a.length, b.length);
		return all;
	}

	private static void write(ByteArrayOutputStream out, String text) {
		out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
	}

	private static String pick(Random random, String[] choices) {
		return choices[random.nextInt(choices.length)];
	}
}
