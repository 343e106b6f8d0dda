/**
 * The module runtime's own parts, not for module authors: the {@link io.xd.modules.internal.ModuleRegistry} the
 * admin and the container look modules up in, and (in {@code metrics}) the allocation-free counters of the hot
 * path. Names here may change between releases; a module is written against {@link io.xd.modules} only.
 */
package io.xd.modules.internal;
