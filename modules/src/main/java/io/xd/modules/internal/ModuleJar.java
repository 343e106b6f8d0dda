package io.xd.modules.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;

/**
 * Checks a custom module's jar and loads its provider in a {@link ModuleClassLoader} of its own. Both steps refuse a
 * bad jar with a {@link ModuleJarException} whose message says what is wrong; neither writes anything.
 */
public final class ModuleJar {

	/** The service file that names a jar's module provider. */
	public static final String SERVICE_FILE = "META-INF/services/" + ModuleProvider.class.getName();

	private ModuleJar() {
	}

	/**
	 * Copies at most {@code maxBytes} from {@code in} to a new file {@code target}, and returns the SHA-256 of
	 * what was copied, in lower-case hex.
	 * @throws TooLargeException when there is more; {@code target} is deleted then
	 */
	public static String copy(InputStream in, Path target, long maxBytes) throws IOException {
		MessageDigest digest = sha256Digest();
		long copied = 0;
		byte[] buffer = new byte[64 * 1024];
		try (InputStream digesting = new DigestInputStream(in, digest);
				OutputStream out = Files.newOutputStream(target)) {
			for (int n = digesting.read(buffer); n >= 0; n = digesting.read(buffer)) {
				copied += n;
				if (copied > maxBytes) {
					throw new TooLargeException(maxBytes);
				}
				out.write(buffer, 0, n);
			}
		}
		catch (IOException | RuntimeException ex) {
			Files.deleteIfExists(target);
			throw ex;
		}
		return HexFormat.of().formatHex(digest.digest());
	}

	/** The SHA-256 of a file, in lower-case hex. */
	public static String sha256(Path file) throws IOException {
		MessageDigest digest = sha256Digest();
		try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
			in.transferTo(OutputStream.nullOutputStream());
		}
		return HexFormat.of().formatHex(digest.digest());
	}

	private static MessageDigest sha256Digest() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JDK has SHA-256", ex);
		}
	}

	/** A jar larger than allowed. */
	public static final class TooLargeException extends ModuleJarException {

		public TooLargeException(long maxBytes) {
			super("The jar is larger than " + maxBytes + " bytes (xd.modules.maxUploadSize)");
		}
	}

	/**
	 * Checks that {@code jar} is a zip archive within {@code limits}, whose entry names are all relative paths
	 * without {@code ..} segments, and that it lists a module provider. Expands every entry (counting, not storing)
	 * rather than trusting the sizes the archive declares.
	 * @throws ModuleJarException naming the first problem found
	 */
	public static void check(Path jar, JarLimits limits) {
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			if (zip.size() > limits.maxEntries()) {
				throw new ModuleJarException("The jar has " + zip.size() + " entries; at most " + limits.maxEntries()
						+ " are allowed");
			}
			boolean hasServiceFile = false;
			long expanded = 0;
			byte[] buffer = new byte[64 * 1024];
			Enumeration<? extends ZipEntry> entries = zip.entries();
			while (entries.hasMoreElements()) {
				ZipEntry entry = entries.nextElement();
				checkEntryName(entry.getName());
				hasServiceFile |= entry.getName().equals(SERVICE_FILE);
				if (entry.isDirectory()) {
					continue;
				}
				long size = 0;
				try (InputStream in = zip.getInputStream(entry)) {
					for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
						size += n;
						if (expanded + size > limits.maxExpandedBytes()) {
							throw new ModuleJarException("The jar expands to more than " + limits.maxExpandedBytes()
									+ " bytes (at entry '" + entry.getName() + "'): refused as a possible zip bomb");
						}
					}
				}
				expanded += size;
				long compressed = Math.max(1, entry.getCompressedSize());
				if (size > JarLimits.RATIO_THRESHOLD && size / compressed > limits.maxRatio()) {
					throw new ModuleJarException("Entry '" + entry.getName() + "' expands " + (size / compressed)
							+ " times (at most " + limits.maxRatio() + " is allowed): refused as a possible zip bomb");
				}
			}
			if (!hasServiceFile) {
				throw new ModuleJarException("The jar has no " + SERVICE_FILE + " naming its module provider");
			}
		}
		catch (ZipException ex) {
			throw new ModuleJarException("The body is not a jar (zip) file: " + ex.getMessage(), ex);
		}
		catch (IOException ex) {
			throw new ModuleJarException("The jar cannot be read: " + ex.getMessage(), ex);
		}
	}

	private static void checkEntryName(String name) {
		boolean unsafe = name.isEmpty() || name.startsWith("/") || name.indexOf('\\') >= 0 || name.indexOf(':') >= 0
				|| name.indexOf('\0') >= 0;
		for (String segment : name.split("/")) {
			unsafe |= segment.equals("..");
		}
		if (unsafe) {
			throw new ModuleJarException("The jar has an entry with an unsafe name ('" + printable(name)
					+ "'): entry names must be relative paths without '..', '\\' or ':'");
		}
	}

	private static String printable(String name) {
		return name.codePoints()
			.limit(200)
			.collect(StringBuilder::new, (b, c) -> b.append(Character.isISOControl(c) ? '?' : (char) c),
					StringBuilder::append)
			.toString();
	}

	/**
	 * Loads the one module provider of a checked jar in a new {@link ModuleClassLoader} and asks it for its
	 * metadata, on a thread of its own. The module is named {@code name}, whatever name its provider declares; its
	 * type must be {@code type}.
	 * @param sha256 the jar's digest, kept with the module
	 * @param timeout how long the provider may take to load and describe itself
	 * @throws ModuleJarException when the jar lists no provider or several, a provider fails to load or to
	 * describe itself (in time), or it declares another type; the class loader is closed then
	 */
	public static CustomModule load(Path jar, ModuleType type, String name, String sha256, Duration timeout) {
		FutureTask<CustomModule> load = new FutureTask<>(() -> load(jar, type, name, sha256));
		Thread thread = new Thread(load, "xd-module-load-" + type.label() + "-" + name);
		thread.setDaemon(true);
		thread.start();
		try {
			return load.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			// a provider stuck in its static initializer or metadata(): its thread cannot be stopped, only abandoned
			thread.interrupt();
			throw new ModuleJarException("The module provider did not load and describe itself within " + timeout
					+ " (xd.modules.loadTimeout)");
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new ModuleJarException("The jar's module cannot be loaded: " + describe(ex.getCause()), ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while loading module " + type.label() + ":" + name, ex);
		}
	}

	/**
	 * As {@link #load(Path, ModuleType, String, String, Duration)}, on the calling thread and without a time limit,
	 * for a jar whose provider loaded within a limit before (a restart, a fetched copy of a checked jar).
	 */
	public static CustomModule load(Path jar, ModuleType type, String name, String sha256) {
		String qualifiedName = type.label() + ":" + name;
		ModuleClassLoader loader;
		try {
			loader = new ModuleClassLoader(qualifiedName, jar);
		}
		catch (IOException ex) {
			throw new ModuleJarException("The jar cannot be read: " + ex.getMessage(), ex);
		}
		try {
			ModuleProvider provider = provider(loader);
			ModuleMetadata declared;
			try {
				declared = provider.metadata();
			}
			catch (RuntimeException | LinkageError ex) {
				throw new ModuleJarException("The module provider " + provider.getClass().getName()
						+ " failed in metadata(): " + describe(ex), ex);
			}
			if (declared == null) {
				throw new ModuleJarException(
						"The module provider " + provider.getClass().getName() + " returned no metadata");
			}
			if (declared.type() != type) {
				throw new ModuleJarException("The jar's module " + declared.name() + " is a " + declared.type()
						+ ", but it was uploaded as a " + type);
			}
			ModuleMetadata metadata = new ModuleMetadata(type, name, declared.description(), declared.options());
			return new CustomModule(metadata, provider, loader, sha256);
		}
		catch (RuntimeException | LinkageError ex) {
			close(loader);
			if (ex instanceof ModuleJarException jarException) {
				throw jarException;
			}
			throw new ModuleJarException("The jar's module cannot be loaded: " + describe(ex), ex);
		}
	}

	private static ModuleProvider provider(ModuleClassLoader loader) {
		List<ModuleProvider> providers = new ArrayList<>();
		try {
			ServiceLoader.load(ModuleProvider.class, loader).forEach(providers::add);
		}
		catch (ServiceConfigurationError ex) {
			throw new ModuleJarException("The module provider fails to load: " + describe(ex), ex);
		}
		if (providers.size() != 1) {
			throw new ModuleJarException("A module jar lists exactly one provider in " + SERVICE_FILE + "; this one lists "
					+ providers.size());
		}
		ModuleProvider provider = providers.get(0);
		if (provider.getClass().getClassLoader() != loader) {
			throw new ModuleJarException("The module provider " + provider.getClass().getName()
					+ " is not a class of the jar");
		}
		return provider;
	}

	/** The exception and its causes, one message each: what a module author needs to fix the jar. */
	static String describe(Throwable ex) {
		StringBuilder text = new StringBuilder();
		for (Throwable t = ex; t != null && text.length() < 1000; t = (t.getCause() == t) ? null : t.getCause()) {
			if (!text.isEmpty()) {
				text.append("; caused by ");
			}
			text.append(t.getClass().getName());
			if (t.getMessage() != null) {
				text.append(": ").append(t.getMessage());
			}
		}
		return text.toString();
	}

	private static void close(ModuleClassLoader loader) {
		try {
			loader.close();
		}
		catch (IOException ex) {
			// nothing was loaded from it that anyone holds; the file handle goes with the loader
		}
	}
}
