package io.xd.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for requests that {@code java.net.http.HttpClient} refuses to send (control
 * characters, malformed request lines and headers, bad chunking, any bytes at all). One request per connection: the
 * caller's bytes are sent as they are, then the response is read until the server closes the connection.
 */
final class RawHttp {

	private final int port;

	RawHttp(int port) {
		this.port = port;
	}

	/** A request line and headers (CRLF-separated, without the blank line that ends them), then a body. */
	static byte[] request(String head, byte[] body) {
		byte[] start = (head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
		byte[] all = new byte[start.length + body.length];
		System.arraycopy(start, 0, all, 0, start.length);
		System.arraycopy(body, 0, all, start.length, body.length);
		return all;
	}

	Response send(byte[] request) {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			try {
				out.write(request);
				out.flush();
			}
			catch (SocketException ex) {
				// the server answered and closed before taking the whole request (say, a body over its limit):
				// its answer is still there to read
			}
			return Response.parse(readAll(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static byte[] readAll(InputStream in) throws IOException {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			for (int n; (n = in.read(buffer)) >= 0;) {
				all.write(buffer, 0, n);
			}
		}
		catch (SocketException ex) {
			// reset after the response was sent: keep what arrived
		}
		return all.toByteArray();
	}

	/**
	 * @param status the status code; 0 for an answer without a status line (HTTP/0.9), -1 for none at all
	 * @param contentType the Content-Type header, or null
	 * @param body the body, de-chunked, as UTF-8 text
	 */
	record Response(int status, String contentType, String body) {

		static Response parse(byte[] bytes) {
			String text = new String(bytes, StandardCharsets.ISO_8859_1);
			while (text.startsWith("HTTP/1.1 1") && text.indexOf("\r\n\r\n") > 0) {
				// an interim answer (100 Continue): the final one follows
				text = text.substring(text.indexOf("\r\n\r\n") + 4);
			}
			int headEnd = text.indexOf("\r\n\r\n");
			if (text.isEmpty()) {
				return new Response(-1, null, text);
			}
			if (!text.startsWith("HTTP/1.1 ") || headEnd < 0) {
				// an HTTP/0.9 answer, to a request line Tomcat could not read a version from: a body alone
				return new Response(0, null, new String(bytes, StandardCharsets.UTF_8));
			}
			int status = Integer.parseInt(text.substring(9, 12));
			String contentType = null;
			boolean chunked = false;
			for (String line : text.substring(0, headEnd).split("\r\n")) {
				String lower = line.toLowerCase(Locale.ROOT);
				if (lower.startsWith("content-type:")) {
					contentType = line.substring(13).trim();
				}
				else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
					chunked = true;
				}
			}
			String body = text.substring(headEnd + 4);
			if (chunked) {
				body = dechunk(body);
			}
			return new Response(status, contentType,
					new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
		}

		private static String dechunk(String chunked) {
			StringBuilder body = new StringBuilder();
			int at = 0;
			while (at < chunked.length()) {
				int lineEnd = chunked.indexOf("\r\n", at);
				if (lineEnd < 0) {
					break;
				}
				int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
				if (size == 0) {
					break;
				}
				body.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
				at = lineEnd + 2 + size + 2;
			}
			return body.toString();
		}
	}
}
