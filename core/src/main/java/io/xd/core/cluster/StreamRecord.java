package io.xd.core.cluster;

/**
 * A stream definition as stored: its name and its DSL text, exactly as the user wrote it.
 *
 * @param name the stream name
 * @param definition the DSL text
 */
public record StreamRecord(String name, String definition) {
}
