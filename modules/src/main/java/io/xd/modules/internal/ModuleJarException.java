package io.xd.modules.internal;

/**
 * A jar that cannot be a module: not a jar, too big once expanded, an entry with an unsafe name, no provider or a
 * provider that fails. The message says why, in words a module author can act on.
 */
public class ModuleJarException extends IllegalArgumentException {

	public ModuleJarException(String message) {
		super(message);
	}

	public ModuleJarException(String message, Throwable cause) {
		super(message, cause);
	}
}
