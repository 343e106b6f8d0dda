package io.xd.server.web;

import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.coyote.BadRequestException;
import org.apache.tomcat.util.http.InvalidParameterException;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

import io.xd.admin.AdminException;
import io.xd.admin.web.ApiErrors;

/**
 * The error page of every XD process, in place of Spring Boot's: what fails outside Spring MVC's exception handlers
 * (a filter, the servlet container, an error sent with {@code sendError}) is answered in the REST API's JSON shape.
 * An exception that a malformed request causes (an undecodable query string or form body, a broken chunked body,
 * an unknown charset) is a 4xx; any other exception is a 500 whose body carries the id of the logged stack trace.
 */
@RestController
public class ApiErrorController implements ErrorController {

	@RequestMapping("${server.error.path:${error.path:/error}}")
	public ResponseEntity<String> error(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		if (!(code instanceof Integer status)) {
			// asked for directly, not forwarded by the container
			return respond(HttpStatus.NOT_FOUND, ApiErrors.body("NoResourceFoundException",
					"No such resource: " + request.getRequestURI()));
		}
		Throwable exception = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
		if (exception != null) {
			HttpStatus clientError = clientError(exception);
			if (clientError == null) {
				return respond(HttpStatus.INTERNAL_SERVER_ERROR,
						List.of(ApiErrors.serverFault(exception, "Request failed")));
			}
			Throwable cause = exception;
			while (cause instanceof ServletException && cause.getCause() != null) {
				cause = cause.getCause();
			}
			String logref = (cause instanceof AdminException refused) ? refused.logref()
					: cause.getClass().getSimpleName();
			String message = (cause instanceof AdminException) ? cause.getMessage()
					: "The request could not be read: " + cause.getMessage();
			return respond(clientError, ApiErrors.body(logref, message));
		}
		HttpStatus known = HttpStatus.resolve(status);
		String message = (String) request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
		if (message == null || message.isBlank()) {
			message = (known == null) ? "HTTP " + status : known.getReasonPhrase();
		}
		return respond(HttpStatusCode.valueOf(status), ApiErrors.body(ApiErrors.logref(status), message));
	}

	/** The 4xx that an exception caused by the request deserves, or null for a fault of the server. */
	static HttpStatus clientError(Throwable exception) {
		for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidParameterException invalid) {
				HttpStatus status = HttpStatus.resolve(invalid.getErrorCode());
				return (status != null && status.is4xxClientError()) ? status : HttpStatus.BAD_REQUEST;
			}
			if (cause instanceof AdminException refused && refused.status() < 500) {
				// refused by the REST API, whose answer could not be written
				return HttpStatus.valueOf(refused.status());
			}
			if (cause instanceof MaxUploadSizeExceededException) {
				return HttpStatus.PAYLOAD_TOO_LARGE;
			}
			if (cause instanceof BadRequestException || cause instanceof MultipartException) {
				return HttpStatus.BAD_REQUEST;
			}
			if (cause instanceof UnsupportedCharsetException || cause instanceof IllegalCharsetNameException) {
				return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return null;
	}

	/** As JSON text whatever the {@code Accept} header says, as {@code ApiErrors} answers. */
	private static ResponseEntity<String> respond(HttpStatusCode status, List<Map<String, Object>> body) {
		return ResponseEntity.status(status)
			.contentType(new MediaType(MediaType.APPLICATION_JSON, StandardCharsets.UTF_8))
			.body(ApiErrors.json(body));
	}
}
