// Turns what went wrong into words for the person: WebAuthn DOMExceptions by name, server errors as the server
// worded them. Never a stack trace.
import { ApiError } from "./api.js";

const byName = {
  NotAllowedError: "The passkey request was cancelled or timed out.",
  InvalidStateError: "This authenticator is already registered for this account. Use another one.",
  SecurityError: "This page's address is not allowed to use passkeys for this site.",
  NotSupportedError: "This browser or authenticator does not support the kind of passkey this site asks for.",
  AbortError: "The passkey request was cancelled.",
  ConstraintError: "This authenticator cannot do what this site asks (for example, user verification).",
  UnknownError: "The authenticator failed. Try again.",
};

const sentence = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "Something went wrong. Try again.");

/** A sentence describing `error`. */
export function describe(error) {
  if (error instanceof ApiError) return sentence(error.message);
  if (error && typeof error.name === "string" && byName[error.name]) return byName[error.name];
  return "Something went wrong. Try again.";
}

/** Whether `error` is the cancellation of a request the page aborted itself (nothing to tell the person). */
export function isAbort(error) {
  return !!error && error.name === "AbortError";
}
