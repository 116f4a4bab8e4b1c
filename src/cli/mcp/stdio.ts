// The server's stdio transport: newline-delimited JSON-RPC read from stdin,
// written to stdout. It replaces the SDK's StdioServerTransport, whose read
// buffer throws and stops the server on a message over 10 MiB and copies the
// whole buffer on every chunk. Here:
//
// - a message is gathered from its chunks once, when its line ends (linear
//   in its size), up to `MAX_MESSAGE_BYTES`, as much as `ln-diff apply
//   --json` reads (the longest string Node.js holds);
// - a longer line is read to its end and dropped, keeping only its first and
//   last bytes, and answered with an error naming the limit: a `tools/call`
//   with an error result (`isError`), any other request with a JSON-RPC
//   error, for the id found near the line's start or end (null when none is);
// - a line that is not JSON is answered with a JSON-RPC parse error, and JSON
//   that is not a JSON-RPC message with an invalid-request error (id null
//   when none is found); a blank line is passed over;
// - every other line goes to the server, and the next line is read on.
//
// The transport closes only when stdin ends or the server closes it.

import { constants } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest message read, in bytes: 536,870,888 (512 MiB less 24), the
 * longest string Node.js holds on a 64-bit system, so as much as `ln-diff
 * apply --json` reads (less where Node.js holds less). README.md and the
 * help say this number.
 */
export const MAX_MESSAGE_BYTES = Math.min(536_870_888, constants.MAX_STRING_LENGTH);

/**
 * The limit a test sets with LN_DIFF_MCP_TEST_LIMIT (tests only: a message
 * over the limit, sent through the real server, needs no half-gigabyte
 * pipe); else `MAX_MESSAGE_BYTES`.
 */
function defaultLimit(): number {
  const n = Number(process.env.LN_DIFF_MCP_TEST_LIMIT);
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, MAX_MESSAGE_BYTES) : MAX_MESSAGE_BYTES;
}

/** How many bytes of each end of an over-long line are kept, to find its id and method. */
const KEPT = 4096;

const NEWLINE = 0x0a;

type Id = string | number | null;

/** JSON-RPC error codes (the specification's). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** A JSON value of an id at the start of `s`: a number or a string. */
const ID_VALUE = String.raw`(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*")`;
/** An id as the first member of the message, or after `"jsonrpc"` (as most clients write it). */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** An id as the last member of the message (as the SDK's client writes it). */
const ID_AT_END = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);
/** A method as the first member, or after `"jsonrpc"`; or as the last member before `"jsonrpc"` and `"id"` at the end. */
const METHOD_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*[^,]*,\s*)?"method"\s*:\s*"([^"\\]*)"/;

/** The id of a message of which only its first and last bytes are known, when it stands where clients write it; else null. */
export function idOf(head: string, tail: string): Id {
  const m = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (!m) return null;
  return JSON.parse(m[1]) as string | number;
}

/** The method of such a message, when it stands first (after `"jsonrpc"` and `"id"`); else null. */
export function methodOf(head: string): string | null {
  return METHOD_AT_START.exec(head)?.[1] ?? null;
}

/** A line without the CR of a CR LF line break. */
const withoutCr = (s: string) => (s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s);

/** A size for people: `512.0 MiB`, `64.0 KiB`. */
const human = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);

/** The words of the answer to a message over the limit. */
export function tooLongMessage(bytes: number, limit: number): string {
  return `the message is ${bytes} bytes (${human(bytes)}), over the ${limit} bytes (${human(limit)}) this server reads in one message; it was not read: send a shorter reply (fewer edits in one call)`;
}

/** Newline-delimited JSON-RPC over a pair of streams (stdin and stdout by default); see the file header. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The chunks of the line read so far (none while an over-long line is dropped). */
  private chunks: Buffer[] = [];
  private size = 0;
  /** While an over-long line is dropped: its first bytes, its last bytes and its size so far. */
  private dropping: { head: Buffer; tail: Buffer; size: number } | null = null;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    /** The longest message read, in bytes. */
    readonly limit: number = defaultLimit(),
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      this.take(chunk.subarray(from, nl));
      this.lineEnded();
      from = nl + 1;
    }
    if (from < chunk.length) this.take(chunk.subarray(from));
  };

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onError = (error: Error) => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onError);
  }

  /** Add bytes of the current line: kept while under the limit, else only its ends. */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping === null && this.size + part.length <= this.limit) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    if (this.dropping === null) {
      const kept = this.chunks;
      this.dropping = { head: Buffer.alloc(0), tail: Buffer.alloc(0), size: 0 };
      this.chunks = [];
      this.size = 0;
      for (const c of kept) this.keepEnds(c);
    }
    this.keepEnds(part);
  }

  private keepEnds(part: Buffer): void {
    const d = this.dropping!;
    if (d.head.length < KEPT) d.head = Buffer.concat([d.head, part.subarray(0, KEPT - d.head.length)]);
    d.tail = part.length >= KEPT ? Buffer.from(part.subarray(part.length - KEPT)) : Buffer.concat([d.tail, part]).subarray(-KEPT);
    d.size += part.length;
  }

  private lineEnded(): void {
    if (this.dropping !== null) {
      const { head, tail, size } = this.dropping;
      this.dropping = null;
      this.tooLong(head.toString('utf8'), withoutCr(tail.toString('utf8')), size);
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    const text = withoutCr(line.toString('utf8'));
    if (text.trim() === '') return;
    this.read(text);
  }

  private read(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.answerError(null, PARSE_ERROR, `the message is not JSON (${(err as Error).message}); each message is one JSON-RPC object on one line`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value !== null && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : null;
      const known = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.answerError(known, INVALID_REQUEST, 'the message is not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Answer a message over the limit, when it is a request (it has an id) or its id cannot be found. */
  private tooLong(head: string, tail: string, size: number): void {
    const id = idOf(head, tail);
    const message = tooLongMessage(size, this.limit);
    if (id !== null && methodOf(head) === 'tools/call') {
      void this.send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: message }], isError: true } });
      return;
    }
    // When no id is found, JSON-RPC answers with id null (the id could not be read).
    this.answerError(id, INVALID_REQUEST, message);
  }

  private answerError(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onError);
    this.input.pause();
    this.chunks = [];
    this.dropping = null;
    this.onclose?.();
  }
}
