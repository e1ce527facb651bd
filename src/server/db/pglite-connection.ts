import { EventEmitter } from "node:events";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { serialize } from "pg-protocol";

/**
 * node-postgres over PGlite's one session, one connection object per pg client.
 *
 * PGlite's own adapter (`createPgConfig`) hands every client of a pool the same connection object.
 * When the pool drops a client (a failed `pool.query` releases it with its error, an idle one
 * times out), that client's last answers and its "end" are still on their way and reach the
 * client made in its place: the next query fails with "Connection terminated unexpectedly" and
 * the following ones with "Received unexpected parseComplete message", which crashed the embedded
 * server. Here each client gets an emitter of its own, so what was meant for one client never
 * reaches another, while every message still goes through one queue, in the order sent, because
 * they all share one PostgreSQL session.
 */
class PgliteSession {
	#tail: Promise<unknown>;
	/** The session's transaction status after the last exchange: I idle, T in a transaction, E failed one. */
	#transactionStatus = "I";
	/**
	 * Named prepared statements belong to the session, not to a client: node-postgres keeps them on
	 * its connection, so all of this session's connections share these.
	 */
	readonly parsedStatements: Record<string, string> = {};
	readonly submittedNamedStatements: Record<string, string> = {};

	constructor(readonly pglite: PGlite) {
		this.#tail = pglite.waitReady;
	}

	/** Runs `work` after everything queued before it, whatever became of that. */
	enqueue<T>(work: () => Promise<T>): Promise<T> {
		const result = this.#tail.then(work);
		this.#tail = result.catch(() => {});
		return result;
	}

	/** Sends protocol messages to the session and returns its answers (errors among them). */
	async exchange(message: Uint8Array): Promise<Array<{ name: string }>> {
		const answers = await this.pglite.execProtocolStream(message, { throwOnError: false });
		for (const answer of answers) {
			if (answer.name === "readyForQuery") {
				this.#transactionStatus = (answer as unknown as { status: string }).status;
			}
		}
		return answers;
	}

	get isInTransaction(): boolean {
		return this.#transactionStatus !== "I";
	}
}

/** The part of node-postgres's Connection that a pg Client uses, spoken to PGlite. */
class PgliteConnection extends EventEmitter {
	/** Read by pg's Client.end(), which skips ending a connection that never connected. */
	_connecting = false;
	/** pg's Client.end() destroys the stream of a connection with a query still running. */
	readonly stream = { destroy: () => this.end() };
	readonly parsedStatements: Record<string, string>;
	readonly submittedNamedStatements: Record<string, string>;
	#ended = false;

	constructor(private readonly session: PgliteSession) {
		super();
		this.parsedStatements = session.parsedStatements;
		this.submittedNamedStatements = session.submittedNamedStatements;
	}

	#send(message: Uint8Array): void {
		if (this.#ended) return;
		this.session
			.enqueue(() => this.session.exchange(message))
			.then((answers) => {
				for (const answer of answers) {
					// node-postgres names an ErrorResponse "errorMessage".
					this.emit(answer.name === "error" ? "errorMessage" : answer.name, answer);
				}
			})
			.catch((error: unknown) => this.emit("error", error));
	}

	connect(): void {
		this._connecting = true;
		void this.session.enqueue(async () => {
			// The session needs no start-up: it is ready as soon as PGlite is.
			process.nextTick(() => this.emit("readyForQuery"));
		});
	}

	/**
	 * Like a closed socket: a transaction the client left open is rolled back (PostgreSQL does that
	 * when a connection closes; here the next client would otherwise find itself inside it), then
	 * "end" is emitted, after the client's last answers.
	 */
	end(): void {
		if (this.#ended) return;
		this.#ended = true;
		void this.session
			.enqueue(async () => {
				if (this.session.isInTransaction) await this.session.exchange(serialize.query("rollback"));
			})
			.catch((error: unknown) => this.emit("error", error))
			.finally(() => this.emit("end"));
	}

	query(text: string): void {
		this.#send(serialize.query(text));
	}
	parse(query: Parameters<typeof serialize.parse>[0]): void {
		this.#send(serialize.parse(query));
	}
	bind(config: Parameters<typeof serialize.bind>[0]): void {
		this.#send(serialize.bind(config));
	}
	execute(config: Parameters<typeof serialize.execute>[0]): void {
		this.#send(serialize.execute(config));
	}
	describe(message: Parameters<typeof serialize.describe>[0]): void {
		this.#send(serialize.describe(message));
	}
	close(message: Parameters<typeof serialize.close>[0]): void {
		this.#send(serialize.close(message));
	}
	flush(): void {
		this.#send(serialize.flush());
	}
	sync(): void {
		this.#send(serialize.sync());
	}
	sendCopyFromChunk(chunk: Buffer): void {
		this.#send(serialize.copyData(chunk));
	}
	endCopyFrom(): void {
		this.#send(serialize.copyDone());
	}
	sendCopyFail(message: string): void {
		this.#send(serialize.copyFail(message));
	}

	// A socket's business, with nothing to do for an in-process session.
	requestSsl(): void {}
	startup(): void {}
	password(): void {}
	cancel(): void {}
	ref(): void {}
	unref(): void {}
}

/**
 * A pg Pool over `pglite` for Kysely, Better Auth and pg-boss. PGlite is one session, so the pool
 * holds one client at a time: a transaction owns the session until it ends.
 */
export function createPglitePool(pglite: PGlite): pg.Pool {
	const session = new PgliteSession(pglite);
	class PgliteClient extends pg.Client {
		constructor(config?: pg.ClientConfig) {
			// `connection` is node-postgres's own option for a ready-made connection (not in its types).
			super({ ...config, connection: new PgliteConnection(session) } as pg.ClientConfig);
		}
	}
	return new pg.Pool({
		max: 1,
		Client: PgliteClient as unknown as new () => pg.ClientBase,
		// Dummies: pg reads them; the in-process session takes no credentials.
		user: "postgres",
		database: "postgres",
	});
}
