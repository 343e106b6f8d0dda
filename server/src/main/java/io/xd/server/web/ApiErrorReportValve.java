package io.xd.server.web;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.ExceptionUtils;

import org.springframework.http.HttpStatus;

import io.xd.admin.web.ApiErrors;

/**
 * Tomcat's error report in the REST API's JSON shape, for the errors Tomcat answers itself before any filter or
 * servlet runs: a request line, URL or header it cannot parse, headers over
 * {@code server.tomcat.max-http-request-header-size}, an encoded {@code /} or {@code \} in a path, and so on.
 * <p>
 * A malformed request is always a 4xx: Tomcat's 505 (an HTTP version other than 1.0 and 1.1) and 501 (a
 * transfer-coding or method it does not implement) are answered as 400, since the request, not the server, is at
 * fault. With a 4xx, a throwable is Tomcat's parse error, whose message is shown; with a 5xx it is a server fault:
 * logged with an error id, answered with that id.
 */
public class ApiErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean(true);
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		List<Map<String, Object>> body;
		if (status == 501 || status == 505) {
			String refused = HttpStatus.valueOf(status).getReasonPhrase();
			status = 400;
			response.setStatus(status);
			body = ApiErrors.body("BadRequestException", "The request is malformed (" + refused
					+ "): send HTTP/1.1 with a standard method and no transfer-coding other than chunked");
		}
		else if (status >= 500 && throwable != null) {
			body = List.of(ApiErrors.serverFault(throwable, "Request failed in the web server"));
		}
		else {
			// with a 4xx, a throwable is Tomcat's account of what it could not parse
			String reason = (throwable != null) ? throwable.getMessage() : response.getMessage();
			body = ApiErrors.body(ApiErrors.logref(status), message(status, reason));
		}
		try {
			response.setContentType("application/json");
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(ApiErrors.json(body));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the client is gone or the response cannot take a body: nothing more to tell it
		}
		catch (Throwable ex) {
			ExceptionUtils.handleThrowable(ex);
		}
	}

	/** Tomcat's own reason when it gave one, else the status's reason phrase, with what a 400 here usually means. */
	static String message(int status, String tomcatMessage) {
		HttpStatus known = HttpStatus.resolve(status);
		String phrase = (known == null) ? "HTTP " + status : known.getReasonPhrase();
		String reason = (tomcatMessage == null || tomcatMessage.isBlank()) ? phrase : tomcatMessage;
		if (reason.length() > 300) {
			reason = reason.substring(0, 300) + "...";
		}
		if (status == 400) {
			return reason + ": the request line, URL or headers are malformed or too large";
		}
		return reason;
	}
}
