package io.xd.server.web;

import org.apache.catalina.Lifecycle;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;

import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * One error format for every XD process, whatever layer refuses a request: Spring MVC ({@code ApiErrors}), a
 * filter or the servlet container ({@link ApiErrorController}, {@link RequestChecks}), or Tomcat's connector
 * ({@link ApiErrorReportValve}).
 */
@Configuration(proxyBeanMethods = false)
public class WebErrorConfiguration {

	@Bean
	public ApiErrorController apiErrorController() {
		return new ApiErrorController();
	}

	/** Runs right after Spring's character encoding filter, before anything reads parameters or the body. */
	@Bean
	public FilterRegistrationBean<RequestChecks> requestChecks() {
		FilterRegistrationBean<RequestChecks> registration = new FilterRegistrationBean<>(new RequestChecks());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
		return registration;
	}

	/**
	 * Replaces the host's HTML error report valves (Tomcat's, and the one Spring Boot adds in a customizer of its
	 * own, which may run after this one) with the JSON one, once every customizer has run: as the context starts.
	 */
	@Bean
	public TomcatContextCustomizer jsonErrorReportValve() {
		return context -> {
			if (context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
				context.addLifecycleListener(event -> {
					if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
						useOnlyJsonErrorReports(host.getPipeline());
					}
				});
			}
		};
	}

	private static void useOnlyJsonErrorReports(Pipeline pipeline) {
		boolean present = false;
		for (Valve valve : pipeline.getValves()) {
			if (valve instanceof ApiErrorReportValve) {
				present = true;
			}
			else if (valve instanceof ErrorReportValve) {
				pipeline.removeValve(valve);
			}
		}
		if (!present) {
			pipeline.addValve(new ApiErrorReportValve());
		}
	}
}
