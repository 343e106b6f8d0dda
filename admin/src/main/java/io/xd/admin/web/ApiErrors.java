package io.xd.admin.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.xd.admin.AdminException;
import io.xd.admin.dsl.DslException;
import io.xd.admin.stream.StreamPlanner;

/**
 * Every error the REST API returns, as a JSON array of {@code {"logref", "message"}} objects (Spring XD's shape),
 * with {@code code} and {@code position} added for DSL errors. User input yields a 4xx with a readable message;
 * a 5xx means a fault of the server, logged here with its stack trace and never sent to the client.
 */
@RestControllerAdvice
public class ApiErrors extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ApiErrors.class);

	@ExceptionHandler(AdminException.class)
	ResponseEntity<Object> admin(AdminException ex) {
		Map<String, Object> error = error(ex.logref(), ex.getMessage());
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

	@ExceptionHandler(Exception.class)
	ResponseEntity<Object> unexpected(Exception ex) {
		logger.error("Request failed", ex);
		return respond(HttpStatus.INTERNAL_SERVER_ERROR,
				error(ex.getClass().getSimpleName(), "The server failed to handle the request; see its log"));
	}

	@Override
	protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		String message = ex.getMessage();
		if (statusCode.value() == 404) {
			message = "No such resource: " + request.getDescription(false).replace("uri=", "");
		}
		else if (message == null || message.isBlank()) {
			message = HttpStatus.valueOf(statusCode.value()).getReasonPhrase();
		}
		return ResponseEntity.status(statusCode)
			.headers(headers)
			.contentType(MediaType.APPLICATION_JSON)
			.body(List.of(error(ex.getClass().getSimpleName(), message)));
	}

	private static ResponseEntity<Object> respond(HttpStatusCode status, Map<String, Object> error) {
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(List.of(error));
	}

	private static Map<String, Object> error(String logref, String message) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("logref", logref);
		error.put("message", message);
		return error;
	}
}
