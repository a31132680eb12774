import type { JsonRpcMessage } from '@rondo/protocol';

/**
 * Carries a message of a session to the other processes serving it, when the process that
 * received it holds nothing it belongs to: a client's answer to a server-to-client request another
 * process sent, or a `notifications/cancelled` for a request another process runs. Each process
 * that holds the session offers the message to it; the one holding the request takes it.
 */
export interface SessionRelay {
  /** Sends `message` of `sessionId` to every other process. */
  forward(sessionId: string, message: JsonRpcMessage): Promise<void>;
  /** Hears the messages other processes forward; returns the function that stops. */
  receive(listener: (sessionId: string, message: JsonRpcMessage) => void): () => void;
}
