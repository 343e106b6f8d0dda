package io.xd.server.security;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.xd.admin.web.ApiErrors;

/**
 * What Spring Security's firewall refuses once the API is already handling the request (its request wrapper checks
 * parameter names and values only when they are read) is a 400, as when the firewall refuses a request up front.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class FirewallErrors {

	@ExceptionHandler(RequestRejectedException.class)
	ResponseEntity<String> rejected(RequestRejectedException ex) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST)
			.contentType(MediaType.APPLICATION_JSON)
			.body(ApiErrors.json(ApiErrors.body("RequestRejected", ex.getMessage())));
	}
}
