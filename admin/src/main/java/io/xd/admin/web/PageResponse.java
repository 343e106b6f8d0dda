package io.xd.admin.web;

import java.util.List;

/**
 * A page of a list, shaped as Spring XD's REST clients read it:
 * {@code {"links":[],"content":[...],"page":{"size","totalElements","totalPages","number"}}}.
 *
 * @param links always empty (kept for clients that expect it)
 * @param content the items of this page
 * @param page where this page sits in the whole list
 * @param <T> the item type
 */
public record PageResponse<T>(List<Object> links, List<T> content, PageMetadata page) {

	/** The page of {@code all} at 0-based {@code number} with {@code size} items per page (size ≥ 1). */
	public static <T> PageResponse<T> of(List<T> all, int number, int size) {
		int safeSize = Math.max(1, size);
		int safeNumber = Math.max(0, number);
		int from = (int) Math.min((long) safeNumber * safeSize, all.size());
		int to = (int) Math.min((long) from + safeSize, all.size());
		int totalPages = (all.size() + safeSize - 1) / safeSize;
		return new PageResponse<>(List.of(), all.subList(from, to),
				new PageMetadata(safeSize, all.size(), totalPages, safeNumber));
	}

	/**
	 * @param size items per page
	 * @param totalElements items in the whole list
	 * @param totalPages pages in the whole list
	 * @param number this page's 0-based number
	 */
	public record PageMetadata(int size, long totalElements, int totalPages, int number) {
	}
}
