package io.xd.admin.web;

import java.security.Principal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import io.xd.admin.AdminException;
import io.xd.admin.audit.AuditAction;
import io.xd.admin.audit.AuditTrail;
import io.xd.modules.analytics.AggregateCounts;
import io.xd.modules.analytics.AnalyticsStore;
import io.xd.modules.analytics.MetricKind;
import io.xd.modules.analytics.Resolution;
import io.xd.modules.analytics.RichGauge;

/**
 * Spring XD's analytics API: for each kind ({@code counters}, {@code field-value-counters},
 * {@code aggregate-counters}, {@code gauges}, {@code rich-gauges}), {@code GET /metrics/<kind>} (a page of names,
 * with the values when {@code detailed=true}), {@code GET /metrics/<kind>/<name>} and
 * {@code DELETE /metrics/<kind>/<name>}, in Spring XD's JSON shapes. An unknown kind or name is a 404
 * ({@code NoSuchMetricException}). The values come from the process's {@link AnalyticsStore}: in singlenode the
 * one its container's sinks write to, in a cluster the Redis every container writes to.
 */
@RestController
public class MetricsController {

	/** Spring XD's format of bucket times: UTC with milliseconds, as {@code 2026-01-01T10:00:00.000Z}. */
	static final DateTimeFormatter BUCKET_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private final AnalyticsStore store;

	private final AuditTrail audit;

	public MetricsController(AnalyticsStore store, AuditTrail audit) {
		this.store = store;
		this.audit = audit;
	}

	/**
	 * The metrics of a kind, by name.
	 * @param detailed with each metric's values (an aggregate counter's over {@code resolution}, {@code from},
	 * {@code to})
	 */
	@GetMapping("/metrics/{kind}")
	public PageResponse<Map<String, Object>> list(@PathVariable String kind,
			@RequestParam(defaultValue = "false") boolean detailed, @RequestParam(required = false) String resolution,
			@RequestParam(required = false) String from, @RequestParam(required = false) String to,
			@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
		MetricKind metricKind = kind(kind);
		Span span = detailed ? span(resolution, from, to) : null;
		List<String> names = this.store.names(metricKind);
		PageResponse<String> namesPage = PageResponse.of(names, page, size);
		List<Map<String, Object>> content = namesPage.content()
			.stream()
			.map(name -> detailed ? find(metricKind, name, span).orElseGet(() -> resource(metricKind, name))
					: resource(metricKind, name))
			.toList();
		return new PageResponse<>(List.of(), content, namesPage.page());
	}

	/**
	 * One metric with its values; an aggregate counter's counts per bucket of {@code resolution} ({@code minute},
	 * {@code hour} by default, {@code day}, {@code month}, {@code year}) from {@code from} (by default 59 minutes, 23
	 * hours, 6 days, 11 months or 4 years before {@code to}) to {@code to} (now by default), ISO-8601 times in UTC
	 * unless they say otherwise.
	 */
	@GetMapping("/metrics/{kind}/{name}")
	public Map<String, Object> show(@PathVariable String kind, @PathVariable String name,
			@RequestParam(required = false) String resolution, @RequestParam(required = false) String from,
			@RequestParam(required = false) String to) {
		MetricKind metricKind = kind(kind);
		Span span = (metricKind == MetricKind.AGGREGATE_COUNTER) ? span(resolution, from, to) : null;
		return find(metricKind, name, span).orElseThrow(() -> noSuchMetric(metricKind, name));
	}

	/** Removes a metric and what it counted: a sink still deployed starts it again from zero. */
	@DeleteMapping("/metrics/{kind}/{name}")
	public Map<String, String> delete(@PathVariable String kind, @PathVariable String name, Principal user) {
		MetricKind metricKind = kind(kind);
		return this.audit.record(user, AuditAction.METRIC_DELETE, metricKind.label() + ":" + name, entry -> {
			if (!this.store.delete(metricKind, name)) {
				throw noSuchMetric(metricKind, name);
			}
			return Map.of("message", "Deleted " + metricKind.label() + " '" + name + "'");
		});
	}

	private Optional<Map<String, Object>> find(MetricKind kind, String name, Span span) {
		Map<String, Object> resource = resource(kind, name);
		switch (kind) {
			case COUNTER -> {
				var value = this.store.counter(name);
				if (value.isEmpty()) {
					return Optional.empty();
				}
				resource.put("value", value.getAsLong());
			}
			case GAUGE -> {
				var value = this.store.gauge(name);
				if (value.isEmpty()) {
					return Optional.empty();
				}
				resource.put("value", value.getAsLong());
			}
			case FIELD_VALUE_COUNTER -> {
				Optional<Map<String, Double>> counts = this.store.fieldValueCounts(name);
				if (counts.isEmpty()) {
					return Optional.empty();
				}
				resource.put("counts", counts.get());
			}
			case RICH_GAUGE -> {
				Optional<RichGauge> found = this.store.richGauge(name);
				if (found.isEmpty()) {
					return Optional.empty();
				}
				RichGauge gauge = found.get();
				resource.put("value", gauge.value());
				resource.put("alpha", gauge.alpha());
				resource.put("average", gauge.average());
				resource.put("max", gauge.max());
				resource.put("min", gauge.min());
				resource.put("count", gauge.count());
			}
			case AGGREGATE_COUNTER -> {
				Optional<AggregateCounts> found = this.store.aggregateCounts(name, span.resolution(), span.from(),
						span.to());
				if (found.isEmpty()) {
					return Optional.empty();
				}
				Map<String, Long> counts = new LinkedHashMap<>();
				found.get().counts().forEach((bucket, count) -> counts.put(BUCKET_TIME.format(bucket), count));
				resource.put("resolution", span.resolution().label());
				resource.put("total", found.get().total());
				resource.put("counts", counts);
			}
		}
		return Optional.of(resource);
	}

	/** {@code {"name": ..., "links": [{"rel": "self", "href": ...}]}}, the start of every metric's JSON. */
	private static Map<String, Object> resource(MetricKind kind, String name) {
		String href = ServletUriComponentsBuilder.fromCurrentContextPath()
			.pathSegment("metrics", kind.path(), name)
			.toUriString();
		Map<String, Object> resource = new LinkedHashMap<>();
		resource.put("name", name);
		resource.put("links", List.of(Map.of("rel", "self", "href", href)));
		return resource;
	}

	private static MetricKind kind(String path) {
		try {
			return MetricKind.ofPath(path);
		}
		catch (IllegalArgumentException ex) {
			throw new AdminException(404, "NoSuchMetricKindException", ex.getMessage());
		}
	}

	private static AdminException noSuchMetric(MetricKind kind, String name) {
		return new AdminException(404, "NoSuchMetricException",
				"There is no " + kind.label() + " named '" + name + "'");
	}

	private static Span span(String resolution, String from, String to) {
		Resolution chosen = (resolution == null || resolution.isBlank()) ? Resolution.HOUR
				: Resolution.of(resolution.strip());
		Instant end = (to == null || to.isBlank()) ? Instant.now() : time("to", to);
		Instant start = (from == null || from.isBlank()) ? chosen.defaultFrom(end) : time("from", from);
		// checks the span here, so that a bad one is a 400 even for a counter that does not exist
		chosen.buckets(start, end);
		return new Span(chosen, start, end);
	}

	/** An ISO-8601 time: with an offset or {@code Z}, or local (read as UTC), or a date (its midnight, UTC). */
	static Instant time(String parameter, String text) {
		// the shell's and Spring XD's 'yyyy-MM-dd HH:mm:ss' too
		String trimmed = text.strip().replaceFirst("^(\\d{4}-\\d{2}-\\d{2}) (\\d)", "$1T$2");
		try {
			return OffsetDateTime.parse(trimmed).toInstant();
		}
		catch (DateTimeParseException notOffset) {
			try {
				return LocalDateTime.parse(trimmed).toInstant(ZoneOffset.UTC);
			}
			catch (DateTimeParseException notLocal) {
				try {
					return LocalDate.parse(trimmed).atStartOfDay(ZoneOffset.UTC).toInstant();
				}
				catch (DateTimeParseException notDate) {
					throw AdminException.badRequest("IllegalArgumentException", "'" + parameter + "' must be an "
							+ "ISO-8601 time such as 2026-01-01T10:00:00Z or 2026-01-01, not '" + text + "'");
				}
			}
		}
	}

	private record Span(Resolution resolution, Instant from, Instant to) {
	}
}
