extension PasskeyBridge {
    /// The name of the message channel the page posts to: `window.webkit.messageHandlers.latchkey`.
    public static let messageHandlerName = "latchkey"

    /// The page side of the bridge: plain ES2017 (no modules, no build step) to inject at document start
    /// (`PasskeyBridgeMessageHandler.install(in:)` does that; `latchkey passkey bridge --print-script` prints it).
    ///
    /// It defines `window.latchkeyBridge`:
    /// - `register(optionsJSON)` / `authenticate(optionsJSON)`: a promise of the envelope as an object,
    ///   `{ok: true, data}` or `{ok: false, code, errMsg}`; it never rejects, and without the native channel
    ///   it gives `{ok: false, code: "unsupported"}`.
    /// - `credentials.create({publicKey})` / `credentials.get({publicKey})`: as `navigator.credentials`, with
    ///   binary fields as ArrayBuffers, typed arrays or base64url text; resolves to a `PublicKeyCredential`-like
    ///   object (`rawId` and `response` fields as ArrayBuffers, `getClientExtensionResults()`, `toJSON()`
    ///   giving the L3 JSON) or rejects with the `DOMException` a browser would (`NotAllowedError` for
    ///   cancelled, notAllowed, timedOut and noCredentials; `InvalidStateError` for excludedCredential;
    ///   `NotSupportedError` for unsupported and deviceNotConfigured; a `TypeError` for invalidOptions;
    ///   `UnknownError` otherwise), with the stable code on `error.code` and `error.latchkeyCode`.
    /// - `isAvailable()`: whether the native channel is there.
    public static let script: String = #"""
        // Latchkey passkey bridge: window.latchkeyBridge for a page inside an app's web view.
        // Talks to the native side through window.webkit.messageHandlers["\#(messageHandlerName)"] (a handler with replies).
        (function () {
          "use strict";
          if (window.latchkeyBridge) {
            return;
          }

          var DOM_NAMES = {
            cancelled: "NotAllowedError",
            notAllowed: "NotAllowedError",
            timedOut: "NotAllowedError",
            noCredentials: "NotAllowedError",
            excludedCredential: "InvalidStateError",
            unsupported: "NotSupportedError",
            deviceNotConfigured: "NotSupportedError"
          };
          var toString = Object.prototype.toString;

          function channel() {
            var webkit = window.webkit;
            var handler = webkit && webkit.messageHandlers && webkit.messageHandlers["\#(messageHandlerName)"];
            return handler && typeof handler.postMessage === "function" ? handler : null;
          }

          function failure(code, errMsg) {
            return { ok: false, errMsg: errMsg, code: code };
          }

          function describe(error) {
            return error && error.message ? String(error.message) : String(error);
          }

          // The envelope the native side answered, as an object; anything else is a `failed` envelope.
          function envelopeFrom(reply) {
            var envelope = reply;
            if (typeof reply === "string") {
              try {
                envelope = JSON.parse(reply);
              } catch (error) {
                return failure("failed", "the native reply is not JSON: " + describe(error));
              }
            }
            if (!envelope || typeof envelope !== "object" || typeof envelope.ok !== "boolean") {
              return failure("failed", "the native reply is not an envelope");
            }
            return envelope;
          }

          // Sends {action, options} and resolves to the envelope object; never rejects.
          async function send(action, options) {
            var handler = channel();
            if (!handler) {
              return failure("unsupported", "this page is not in an app with the Latchkey passkey bridge");
            }
            var text = options;
            if (typeof options !== "string") {
              try {
                text = JSON.stringify(options);
              } catch (error) {
                return failure("invalidOptions", "the options cannot be written as JSON: " + describe(error));
              }
            }
            try {
              return envelopeFrom(await handler.postMessage({ action: action, options: text }));
            } catch (error) {
              return failure("failed", "the native side did not answer: " + describe(error));
            }
          }

          // ---- navigator.credentials-shaped helper ------------------------------------------------------------

          function isBuffer(value) {
            return value instanceof ArrayBuffer || toString.call(value) === "[object ArrayBuffer]";
          }

          function bytesOf(value) {
            if (isBuffer(value)) {
              return new Uint8Array(value);
            }
            return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
          }

          function base64url(value) {
            var bytes = bytesOf(value);
            var binary = "";
            for (var i = 0; i < bytes.length; i += 0x8000) {
              binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
            }
            return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          }

          function buffer(text) {
            var base64 = String(text).replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
            var binary = atob(base64 + "===".slice((base64.length + 3) % 4));
            var bytes = new Uint8Array(binary.length);
            for (var i = 0; i < binary.length; i++) {
              bytes[i] = binary.charCodeAt(i);
            }
            return bytes.buffer;
          }

          // Options as JSON values: ArrayBuffers and typed arrays become base64url text, undefined members are dropped.
          function jsonValue(value) {
            if (isBuffer(value) || ArrayBuffer.isView(value)) {
              return base64url(value);
            }
            if (Array.isArray(value)) {
              return value.map(jsonValue);
            }
            if (value && typeof value === "object") {
              var result = {};
              Object.keys(value).forEach(function (key) {
                if (value[key] !== undefined && typeof value[key] !== "function") {
                  result[key] = jsonValue(value[key]);
                }
              });
              return result;
            }
            return value;
          }

          function copy(value) {
            return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
          }

          function registrationResponse(json) {
            var transports = (json.transports || []).slice();
            return {
              clientDataJSON: buffer(json.clientDataJSON),
              attestationObject: buffer(json.attestationObject),
              getTransports: function () { return transports.slice(); },
              getAuthenticatorData: function () { return json.authenticatorData ? buffer(json.authenticatorData) : null; },
              getPublicKey: function () { return json.publicKey ? buffer(json.publicKey) : null; },
              getPublicKeyAlgorithm: function () { return json.publicKeyAlgorithm; }
            };
          }

          function authenticationResponse(json) {
            return {
              clientDataJSON: buffer(json.clientDataJSON),
              authenticatorData: buffer(json.authenticatorData),
              signature: buffer(json.signature),
              userHandle: json.userHandle ? buffer(json.userHandle) : null
            };
          }

          // A PublicKeyCredential-like object for the L3 JSON in an envelope's data.
          function credentialFrom(data, action) {
            var json = copy(data);
            delete json.transports; // the envelope repeats it beside `response`; L3 JSON keeps it inside
            json.clientExtensionResults = json.clientExtensionResults || {};
            if (!json.response.transports && data.transports && action === "register") {
              json.response.transports = copy(data.transports);
            }
            return {
              id: json.id,
              rawId: buffer(json.rawId || json.id),
              type: json.type || "public-key",
              authenticatorAttachment: json.authenticatorAttachment || null,
              response: action === "register" ? registrationResponse(json.response) : authenticationResponse(json.response),
              getClientExtensionResults: function () { return copy(json.clientExtensionResults); },
              toJSON: function () { return copy(json); }
            };
          }

          // The error navigator.credentials would throw for a failure envelope; the stable code is on
          // error.code and error.latchkeyCode.
          function errorFrom(envelope) {
            var code = typeof envelope.code === "string" ? envelope.code : "failed";
            var message = typeof envelope.errMsg === "string" ? envelope.errMsg : code;
            var error;
            if (code === "invalidOptions") {
              error = new TypeError(message);
            } else {
              var name = Object.prototype.hasOwnProperty.call(DOM_NAMES, code) ? DOM_NAMES[code] : "UnknownError";
              if (typeof DOMException === "function") {
                error = new DOMException(message, name);
              } else {
                error = new Error(message);
                error.name = name;
              }
            }
            Object.defineProperty(error, "code", { value: code, enumerable: true, configurable: true });
            Object.defineProperty(error, "latchkeyCode", { value: code, enumerable: true, configurable: true });
            return error;
          }

          async function ceremony(action, options) {
            var publicKey = options && options.publicKey;
            if (!publicKey || typeof publicKey !== "object") {
              throw errorFrom(failure("invalidOptions", "the options have no publicKey member"));
            }
            if (options.signal && options.signal.aborted) {
              throw options.signal.reason || new DOMException("the operation was aborted", "AbortError");
            }
            var text;
            try {
              text = JSON.stringify(jsonValue(publicKey));
            } catch (error) {
              throw errorFrom(failure("invalidOptions", "the options cannot be written as JSON: " + describe(error)));
            }
            var envelope = await send(action, text);
            if (!envelope.ok) {
              throw errorFrom(envelope);
            }
            try {
              return credentialFrom(envelope.data, action);
            } catch (error) {
              throw errorFrom(failure("failed", "the native credential cannot be read: " + describe(error)));
            }
          }

          var bridge = {
            isAvailable: function () { return channel() !== null; },
            register: function (optionsJSON) { return send("register", optionsJSON); },
            authenticate: function (optionsJSON) { return send("authenticate", optionsJSON); },
            credentials: Object.freeze({
              create: function (options) { return ceremony("register", options); },
              get: function (options) { return ceremony("authenticate", options); }
            })
          };
          Object.defineProperty(window, "latchkeyBridge", { value: Object.freeze(bridge), enumerable: true });
        })();
        """#
}
