type LogLevel = "debug" | "info" | "warn" | "error";
type LogFields = Record<string, unknown>;

export type Logger = {
	debug(message: string, fields?: LogFields): void;
	info(message: string, fields?: LogFields): void;
	warn(message: string, fields?: LogFields): void;
	error(message: string, fields?: LogFields): void;
};

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function serializeError(error: unknown): unknown {
	if (error instanceof Error) {
		return { name: error.name, message: error.message, stack: error.stack };
	}
	return error;
}

/** A logger that writes one JSON object per line, so logs can be searched and shipped as they are. */
export function createLogger(
	level: LogLevel,
	write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
	const threshold = LEVELS[level];
	const log = (at: LogLevel, message: string, fields?: LogFields) => {
		if (LEVELS[at] < threshold) return;
		const entry: LogFields = { time: new Date().toISOString(), level: at, message };
		for (const [key, value] of Object.entries(fields ?? {})) {
			entry[key] = key === "error" ? serializeError(value) : value;
		}
		write(JSON.stringify(entry));
	};
	return {
		debug: (message, fields) => log("debug", message, fields),
		info: (message, fields) => log("info", message, fields),
		warn: (message, fields) => log("warn", message, fields),
		error: (message, fields) => log("error", message, fields),
	};
}

/** A logger that drops everything, for tests that do not look at logs. */
export function createSilentLogger(): Logger {
	const ignore = () => {};
	return { debug: ignore, info: ignore, warn: ignore, error: ignore };
}
