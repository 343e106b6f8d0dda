package io.xd.server.dashboard;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The browser dashboard at {@code /dashboard/}: plain ES modules and CSS under {@code static/dashboard/}, served by
 * Spring Boot's static resource handling. {@code /dashboard/} shows its {@code index.html}, and {@code /dashboard}
 * redirects there so that the page's relative links resolve. Only the admin (and singlenode) serves it: a container
 * has no REST API for it to call.
 */
@Configuration(proxyBeanMethods = false)
@Profile({ "singlenode", "admin" })
public class DashboardConfiguration implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addRedirectViewController("/dashboard", "/dashboard/");
		registry.addViewController("/dashboard/").setViewName("forward:/dashboard/index.html");
	}
}
