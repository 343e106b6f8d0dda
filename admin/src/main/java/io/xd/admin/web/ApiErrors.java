package io.xd.admin.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.xd.admin.AdminException;
import io.xd.admin.dsl.DslException;
import io.xd.admin.stream.StreamPlanner;

/**
 * Every error the REST API returns, as a JSON array of {@code {"logref", "message"}} objects (Spring XD's shape),
 * with {@code code} and {@code position} added for DSL errors. User input yields a 4xx with a readable message;
 * a 5xx means a fault of the server: its stack trace is logged with a random error id, and the body carries that
 * {@code id} (and never the stack trace), so that the log line can be found from what the client saw.
 * <p>
 * The same shape is written by the web server for what fails before Spring MVC (see {@link #body} and
 * {@link #serverFault}).
 */
@RestControllerAdvice
public class ApiErrors extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ApiErrors.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final MediaType JSON_UTF8 = new MediaType(MediaType.APPLICATION_JSON, StandardCharsets.UTF_8);

	@ExceptionHandler(AdminException.class)
	ResponseEntity<Object> admin(AdminException ex) {
		Map<String, Object> error = error(ex.logref(), ex.getMessage());
		if (ex.status() >= 500) {
			// a fault of the server, such as ZooKeeper out of reach: its id finds the logged cause
			String id = logFault(ex, "Request failed: " + ex.getMessage());
			error.put("message", ex.getMessage() + "; the server's log has the details under error id " + id);
			error.put("id", id);
		}
		if (ex instanceof StreamPlanner.DefinitionException definition) {
			DslException dsl = definition.dslException();
			error.put("code", dsl.code().code());
			error.put("position", dsl.position());
			error.put("detail", dsl.detail());
		}
		return respond(HttpStatusCode.valueOf(ex.status()), error);
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<Object> badArgument(IllegalArgumentException ex) {
		return respond(HttpStatus.BAD_REQUEST, error("IllegalArgumentException", ex.getMessage()));
	}

	/**
	 * A multipart body that cannot be parsed is the client's fault (one too large is a 413, from the base class's
	 * handler of {@code MaxUploadSizeExceededException}).
	 */
	@ExceptionHandler(MultipartException.class)
	ResponseEntity<Object> badMultipart(MultipartException ex) {
		return respond(HttpStatus.BAD_REQUEST, error("MultipartException",
				"The multipart/form-data body could not be read: " + rootMessage(ex)));
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<Object> unexpected(Exception ex) {
		return respond(HttpStatus.INTERNAL_SERVER_ERROR, serverFault(ex, "Request failed"));
	}

	@Override
	protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		if (statusCode.is5xxServerError()) {
			return respond(statusCode, headers, serverFault(ex, "Request failed"));
		}
		String message = ex.getMessage();
		if (statusCode.value() == 404) {
			message = "No such resource: " + request.getDescription(false).replace("uri=", "");
		}
		else if (message == null || message.isBlank()) {
			message = HttpStatus.valueOf(statusCode.value()).getReasonPhrase();
		}
		return respond(statusCode, headers, error(ex.getClass().getSimpleName(), message));
	}

	private static ResponseEntity<Object> respond(HttpStatusCode status, Map<String, Object> error) {
		return respond(status, HttpHeaders.EMPTY, error);
	}

	/**
	 * The error as JSON text, whatever the request's {@code Accept} header says: a client that asked for XML, or
	 * sent an {@code Accept} header Spring cannot match, still learns what went wrong, rather than getting a 500
	 * from content negotiation failing inside the error handler.
	 */
	private static ResponseEntity<Object> respond(HttpStatusCode status, HttpHeaders headers,
			Map<String, Object> error) {
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(JSON_UTF8)
			.body(json(List.of(error)));
	}

	/**
	 * The body of an error response: a JSON array holding one error.
	 * @param logref the kind of problem, such as {@code HttpMessageNotReadableException}
	 * @param message what a user should read
	 */
	public static List<Map<String, Object>> body(String logref, String message) {
		return List.of(error(logref, message));
	}

	/**
	 * The {@code logref} of an error known only by its status, as when the web server refuses a request before
	 * Spring MVC sees it: the name Spring MVC gives the same refusal.
	 */
	public static String logref(int status) {
		return switch (status) {
			case 404 -> "NoResourceFoundException";
			case 405 -> "HttpRequestMethodNotSupportedException";
			case 413 -> "MaxUploadSizeExceededException";
			case 415 -> "HttpMediaTypeNotSupportedException";
			default -> (status >= 500) ? "ServerException" : "BadRequestException";
		};
	}

	/** Writes {@link #body} as the whole response, for code that answers without Spring MVC (filters, handlers). */
	public static void write(HttpServletResponse response, int status, String logref, String message)
			throws IOException {
		response.setStatus(status);
		response.setContentType(JSON_UTF8.toString());
		response.getWriter().write(json(body(logref, message)));
	}

	/** {@link #body} as JSON text, for code that writes responses without Spring MVC. */
	public static String json(List<Map<String, Object>> body) {
		return JSON.writeValueAsString(body);
	}

	/**
	 * Logs a fault of the server with its stack trace under a new random error id, and returns the error to send
	 * with a 500: its {@code id} finds the log line; the stack trace is never sent.
	 * @param fault what went wrong
	 * @param context what was being done, for the log line
	 */
	public static Map<String, Object> serverFault(Throwable fault, String context) {
		String id = logFault(fault, context);
		Map<String, Object> error = error(fault.getClass().getSimpleName(),
				"The server failed to handle the request; its log has the details under error id " + id);
		error.put("id", id);
		return error;
	}

	private static String logFault(Throwable fault, String context) {
		String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
		logger.error("{} [error id {}]", context, id, fault);
		return id;
	}

	private static Map<String, Object> error(String logref, String message) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("logref", logref);
		error.put("message", message);
		return error;
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
		return (root.getMessage() == null) ? root.getClass().getSimpleName() : root.getMessage();
	}
}
