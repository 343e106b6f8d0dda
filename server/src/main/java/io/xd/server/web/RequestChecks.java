package io.xd.server.web;

import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Collections;

import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

import io.xd.admin.web.ApiErrors;

/**
 * Refuses, before any other filter or servlet reads the request, what would otherwise fail deep inside them: a
 * {@code Content-Type} or {@code Accept} that is not a media type (400), a charset the JVM does not know (415), a
 * multipart body without a boundary or whose parts cannot be read (400, or 413 when too large), and a query string or form body that cannot be decoded: a bad percent-escape such as
 * {@code %ZZ}, bytes that are not valid in the charset (UTF-8 unless declared), an encoded lone surrogate, or more
 * than Tomcat accepts ({@code server.tomcat.max-http-form-post-size}, {@code max-parameter-count}), each a 400 or
 * 413. Every refusal is a JSON body in the REST API's shape.
 */
public class RequestChecks extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String contentType = request.getContentType();
		if (contentType != null) {
			String charset = charsetOf(contentType);
			if (charset != null && !isSupported(charset)) {
				refuse(response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "UnsupportedCharsetException", "Charset '"
						+ abbreviate(charset) + "' is not supported: send UTF-8, or declare a charset this server knows");
				return;
			}
			MediaType type;
			try {
				type = MediaType.parseMediaType(contentType);
			}
			catch (InvalidMediaTypeException ex) {
				refuse(response, HttpStatus.BAD_REQUEST, "InvalidMediaTypeException",
						"Content-Type '" + abbreviate(contentType) + "' is not a media type: " + ex.getMessage());
				return;
			}
			if (type.getType().equals("multipart")) {
				String boundary = type.getParameter("boundary");
				if (boundary == null || boundary.isBlank()) {
					refuse(response, HttpStatus.BAD_REQUEST, "MultipartException", "A " + type.getType() + "/"
							+ type.getSubtype() + " body needs a boundary: Content-Type: " + type.getType() + "/"
							+ type.getSubtype() + "; boundary=...");
					return;
				}
				try {
					// read here, as Spring MVC would read it next, so that a broken body is refused as such
					request.getParts();
				}
				catch (IOException | ServletException | IllegalStateException ex) {
					// through the error page, where Spring MVC sees a MultipartException and leaves the parts alone
					HttpStatus status = ApiErrorController.clientError(ex);
					boolean tooLarge = status == HttpStatus.PAYLOAD_TOO_LARGE;
					request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, tooLarge
							? new MaxUploadSizeExceededException(-1, ex)
							: new MultipartException("The multipart body could not be read: check its boundaries "
									+ "and parts", ex));
					if (!response.isCommitted()) {
						// else Tomcat has sent its own error already, for a body it could not read
						response.sendError(tooLarge ? 413 : 400);
					}
					return;
				}
			}
		}
		try {
			// path parameters (";a=b") are decoded by Spring, not by Tomcat: a bad escape there fails in Spring's filters
			RequestPath.parse(request.getRequestURI(), request.getContextPath());
		}
		catch (IllegalArgumentException ex) {
			refuse(response, HttpStatus.BAD_REQUEST, "InvalidPathException", "The path could not be decoded: "
					+ ex.getMessage());
			return;
		}
		for (String accept : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
			try {
				MediaType.parseMediaTypes(accept);
			}
			catch (InvalidMediaTypeException ex) {
				refuse(response, HttpStatus.BAD_REQUEST, "InvalidMediaTypeException",
						"Accept '" + abbreviate(accept) + "' is not a list of media types: " + ex.getMessage());
				return;
			}
		}
		try {
			request.getParameterMap();
		}
		catch (IllegalStateException | IllegalArgumentException ex) {
			HttpStatus status = ApiErrorController.clientError(ex);
			refuse(response, (status == null) ? HttpStatus.BAD_REQUEST : status, "InvalidParameterException",
					"The query string or form body could not be decoded"
							+ ((status == HttpStatus.PAYLOAD_TOO_LARGE) ? " (too large)" : "")
							+ ": check its percent-escapes and that its bytes are valid "
							+ ((request.getCharacterEncoding() == null) ? "UTF-8" : request.getCharacterEncoding()));
			return;
		}
		chain.doFilter(request, response);
	}

	/** The charset parameter of a Content-Type, unquoted, or null; read here, as Tomcat ignores one it cannot use. */
	private static String charsetOf(String contentType) {
		for (String parameter : contentType.split(";")) {
			int equals = parameter.indexOf('=');
			if (equals > 0 && parameter.substring(0, equals).trim().equalsIgnoreCase("charset")) {
				String charset = parameter.substring(equals + 1).trim();
				if (charset.length() >= 2 && charset.startsWith("\"") && charset.endsWith("\"")) {
					charset = charset.substring(1, charset.length() - 1);
				}
				return charset;
			}
		}
		return null;
	}

	private static boolean isSupported(String charset) {
		try {
			return Charset.isSupported(charset);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static void refuse(HttpServletResponse response, HttpStatus status, String logref, String message)
			throws IOException {
		ApiErrors.write(response, status.value(), logref, message);
	}

	private static String abbreviate(String text) {
		return (text.length() > 100) ? text.substring(0, 100) + "..." : text;
	}
}
