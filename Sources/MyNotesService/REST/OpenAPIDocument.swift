import Foundation
import MyNotesDomain

/// The OpenAPI 3.1 document of REST API v1, served at `GET /api/v1/openapi.json`.
///
/// Built from Swift values rather than kept as a file so that the shared pieces
/// (the problem responses, the note schema) are written once; a test holds it to
/// ``RESTEndpoint`` and to what the live server answers.
///
/// ```swift
/// let document = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json))
/// ```
enum OpenAPIDocument {
    /// The document as UTF-8 JSON with sorted keys, built once.
    static let json: [UInt8] = {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document(), options: [.sortedKeys, .withoutEscapingSlashes])
        else { preconditionFailure("the OpenAPI document is a valid JSON object") }
        return Array(data)
    }()

    private static func document() -> [String: Any] {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "MyNotes REST API",
                "version": "1.0.0",
                "description":
                    "Accounts, sessions and notes. The contract is docs/REST-API.md; "
                    + "errors are RFC 9457 problem details.",
            ],
            "servers": [["url": "/"]],
            "security": [["bearer": [String]()]],
            "paths": paths(),
            "components": [
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer"]
                ],
                "schemas": schemas(),
                "responses": sharedResponses(),
                "headers": [
                    "ETag": [
                        "description": "Strong validator of the note's state.",
                        "schema": ["type": "string"], "required": true,
                    ],
                    "WWW-Authenticate": [
                        "schema": ["type": "string"], "required": true,
                    ],
                ],
                "parameters": [
                    "NoteID": [
                        "name": "id", "in": "path", "required": true,
                        "schema": ["type": "integer", "format": "int64", "minimum": 1],
                    ],
                    "IfMatch": [
                        "name": "If-Match", "in": "header", "required": false,
                        "description": "ETags of the note, or `*`: the write happens only if "
                            + "the note is still in one of those states (with `*`: exists), "
                            + "else 412. Without If-Match a write never answers 412.",
                        "schema": ["type": "string"],
                    ],
                ],
            ],
        ]
    }

    // MARK: Paths

    private static func paths() -> [String: Any] {
        [
            "/api/v1/accounts": [
                "post": operation(
                    .createAccount, summary: "Create an account (sign up)", secured: false,
                    body: "Credentials",
                    responses: [
                        "201": json("Account created; its first token.", "AccountCreated"),
                        "400": ref("BadRequest"), "403": ref("Forbidden"),
                        "409": ref("Conflict"), "415": ref("UnsupportedMediaType"),
                        "422": ref("UnprocessableContent"), "429": ref("TooManyRequests"),
                        "500": ref("ServerError"),
                    ])
            ],
            "/api/v1/sessions": [
                "post": operation(
                    .createSession, summary: "Sign in: issue a new token", secured: false,
                    body: "Credentials",
                    responses: [
                        "201": json("Signed in.", "Session"),
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "415": ref("UnsupportedMediaType"), "422": ref("UnprocessableContent"),
                        "429": ref("TooManyRequests"), "500": ref("ServerError"),
                    ]),
                "get": operation(
                    .listSessions, summary: "List the account's live tokens (never the tokens)",
                    responses: [
                        "200": json("The sessions and access keys, oldest first.", "SessionList"),
                        "401": ref("Unauthorized"), "500": ref("ServerError"),
                    ]),
                "delete": operation(
                    .deleteOtherSessions, summary: "Revoke every token but the one used",
                    responses: [
                        "200": json("How many were revoked.", "Revoked"),
                        "401": ref("Unauthorized"), "500": ref("ServerError"),
                    ]),
            ],
            "/api/v1/sessions/current": [
                "delete": operation(
                    .deleteCurrentSession, summary: "Sign out: revoke the token used",
                    responses: [
                        "204": ["description": "Revoked."],
                        "401": ref("Unauthorized"), "500": ref("ServerError"),
                    ])
            ],
            "/api/v1/sessions/{id}": [
                "parameters": [
                    [
                        "name": "id", "in": "path", "required": true,
                        "description": "A session's id from GET /api/v1/sessions.",
                        "schema": ["type": "string"],
                    ]
                ],
                "delete": operation(
                    .deleteSession, summary: "Revoke one of the account's tokens",
                    responses: [
                        "204": ["description": "Revoked."],
                        "401": ref("Unauthorized"), "404": ref("NotFound"),
                        "500": ref("ServerError"),
                    ]),
            ],
            "/api/v1/account/password": [
                "post": operation(
                    .changePassword,
                    summary: "Change the password; every other token is revoked",
                    body: "PasswordChange",
                    responses: [
                        "204": ["description": "Changed; only the token used still works."],
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "403": ref("Forbidden"), "415": ref("UnsupportedMediaType"),
                        "422": ref("UnprocessableContent"), "429": ref("TooManyRequests"),
                        "500": ref("ServerError"),
                    ])
            ],
            "/api/v1/notes": [
                "get": operation(
                    .listNotes, summary: "List notes, newest first",
                    parameters: [
                        [
                            "name": "limit", "in": "query", "required": false,
                            "schema": [
                                "type": "integer", "minimum": 1, "maximum": 200, "default": 50,
                            ],
                        ],
                        [
                            "name": "cursor", "in": "query", "required": false,
                            "description": "The nextCursor of the previous page.",
                            "schema": ["type": "string"],
                        ],
                        [
                            "name": "q", "in": "query", "required": false,
                            "description": "Case-insensitive substring of the content.",
                            "schema": ["type": "string", "maxLength": 1000],
                        ],
                        [
                            "name": "snippet", "in": "query", "required": false,
                            "description":
                                "With q: each note carries a snippet around its first match.",
                            "schema": ["type": "boolean", "default": false],
                        ],
                    ],
                    responses: [
                        "200": json("A page of notes.", "NotePage"),
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "500": ref("ServerError"),
                    ]),
                "post": operation(
                    .createNote, summary: "Create a note", body: "NewNote",
                    responses: [
                        "201": noteResponse(
                            "Created.", links: true,
                            extraHeaders: [
                                "Location": ["schema": ["type": "string"], "required": true]
                            ]),
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "403": ref("Forbidden"), "413": ref("ContentTooLarge"),
                        "415": ref("UnsupportedMediaType"), "422": ref("UnprocessableContent"),
                        "500": ref("ServerError"),
                    ]),
            ],
            "/api/v1/notes/{id}": [
                "parameters": [["$ref": "#/components/parameters/NoteID"]],
                "get": operation(
                    .getNote, summary: "Read a note",
                    responses: [
                        "200": noteResponse("The note."),
                        "401": ref("Unauthorized"), "404": ref("NotFound"),
                        "500": ref("ServerError"),
                    ]),
                "put": operation(
                    .replaceNote, summary: "Replace a note's date and content",
                    body: "NoteReplacement",
                    parameters: [["$ref": "#/components/parameters/IfMatch"]],
                    responses: writeResponses()),
                "patch": operation(
                    .updateNote, summary: "Change a note's date, content or both",
                    body: "NotePatch",
                    parameters: [["$ref": "#/components/parameters/IfMatch"]],
                    responses: writeResponses()),
                "delete": operation(
                    .deleteNote, summary: "Remove a note",
                    parameters: [["$ref": "#/components/parameters/IfMatch"]],
                    responses: [
                        "204": ["description": "Removed."],
                        "401": ref("Unauthorized"), "404": ref("NotFound"),
                        "412": ref("PreconditionFailed"), "500": ref("ServerError"),
                    ]),
            ],
            // The change feed.
            "/api/v1/changes": [
                "get": operation(
                    .listChanges, summary: "The account's changes after a cursor, oldest first",
                    parameters: [
                        changeCursorParameter("since", in: "query"),
                        [
                            "name": "limit", "in": "query", "required": false,
                            "schema": [
                                "type": "integer", "minimum": ChangeFeed.pageSizes.lowerBound,
                                "maximum": ChangeFeed.pageSizes.upperBound,
                                "default": ChangeFeed.defaultPageSize,
                            ],
                        ],
                    ],
                    responses: [
                        "200": json("Changes after `since`, and where to continue.", "ChangePage"),
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "410": ref("CursorExpired"), "500": ref("ServerError"),
                    ])
            ],
            "/api/v1/changes/stream": [
                "get": operation(
                    .streamChanges,
                    summary: "The account's changes as Server-Sent Events, live",
                    parameters: [
                        changeCursorParameter("since", in: "query"),
                        changeCursorParameter("Last-Event-ID", in: "header"),
                    ],
                    responses: [
                        "200": [
                            "description": "A stream that does not end: `retry: 3000`, then "
                                + "one event per change (`id:` its cursor, `event: change`, "
                                + "`data:` the Change as JSON on one line), and a "
                                + "`: heartbeat` comment every 15 s when there is none. "
                                + "Reconnect with `Last-Event-ID` to resume after the last "
                                + "event, without gap or duplicate.",
                            "content": [
                                "text/event-stream": ["schema": ["type": "string"]]
                            ],
                        ],
                        "400": ref("BadRequest"), "401": ref("Unauthorized"),
                        "410": ref("CursorExpired"), "429": ref("TooManyRequests"),
                        "500": ref("ServerError"), "503": ref("ServiceUnavailable"),
                    ])
            ],
            "/api/v1/openapi.json": [
                "get": operation(
                    .openAPIDocument, summary: "This document", secured: false,
                    responses: [
                        "200": [
                            "description": "The OpenAPI 3.1 document.",
                            "content": ["application/json": ["schema": ["type": "object"]]],
                        ]
                    ])
            ],
        ]
    }

    /// A change cursor: opaque to clients (today decimal digits), absent or empty for none.
    private static func changeCursorParameter(_ name: String, in place: String)
        -> [String: Any]
    {
        [
            "name": name, "in": place, "required": false,
            "description": place == "header"
                ? "The last event's id: resume after it (wins over `since`)."
                : "The `cursor` of a previous answer, or an event's id. Absent or empty: "
                    + "from the start (the stream: from now).",
            "schema": ["type": "string", "pattern": "^[0-9]{0,18}$"],
        ]
    }

    private static func writeResponses() -> [String: Any] {
        [
            "200": noteResponse("The note as changed."),
            "400": ref("BadRequest"), "401": ref("Unauthorized"), "403": ref("Forbidden"),
            "404": ref("NotFound"), "412": ref("PreconditionFailed"), "413": ref("ContentTooLarge"),
            "415": ref("UnsupportedMediaType"), "422": ref("UnprocessableContent"),
            "500": ref("ServerError"),
        ]
    }

    private static func operation(
        _ endpoint: RESTEndpoint, summary: String, secured: Bool = true, body: String? = nil,
        parameters: [[String: Any]] = [], responses: [String: Any]
    ) -> [String: Any] {
        var operation: [String: Any] = [
            "operationId": endpoint.operationID, "summary": summary, "responses": responses,
        ]
        if !secured { operation["security"] = [[String: Any]]() }
        var allParameters = parameters
        allParameters.append([
            "name": "Accept-Language", "in": "header", "required": false,
            "description": "zh… for Chinese messages; anything else is English.",
            "schema": ["type": "string"],
        ])
        operation["parameters"] = allParameters
        if let body {
            operation["requestBody"] = [
                "required": true,
                "content": ["application/json": ["schema": schemaRef(body)]],
            ]
        }
        return operation
    }

    private static func noteResponse(
        _ description: String, links: Bool = false, extraHeaders: [String: Any] = [:]
    ) -> [String: Any] {
        var headers: [String: Any] = ["ETag": ["$ref": "#/components/headers/ETag"]]
        headers.merge(extraHeaders) { _, new in new }
        var response: [String: Any] = [
            "description": description,
            "headers": headers,
            "content": ["application/json": ["schema": schemaRef("Note")]],
        ]
        if links {
            var all: [String: Any] = [:]
            for endpoint in [RESTEndpoint.getNote, .replaceNote, .updateNote, .deleteNote] {
                all[endpoint.operationID] = [
                    "operationId": endpoint.operationID,
                    "parameters": ["id": "$response.body#/id"],
                ]
            }
            response["links"] = all
        }
        return response
    }

    private static func json(_ description: String, _ schema: String) -> [String: Any] {
        [
            "description": description,
            "content": ["application/json": ["schema": schemaRef(schema)]],
        ]
    }

    private static func ref(_ response: String) -> [String: Any] {
        ["$ref": "#/components/responses/\(response)"]
    }

    private static func schemaRef(_ name: String) -> [String: Any] {
        ["$ref": "#/components/schemas/\(name)"]
    }

    // MARK: Components

    private static func sharedResponses() -> [String: Any] {
        func problem(_ description: String, headers: [String: Any]? = nil) -> [String: Any] {
            var response: [String: Any] = [
                "description": description,
                "content": ["application/problem+json": ["schema": schemaRef("Problem")]],
            ]
            if let headers { response["headers"] = headers }
            return response
        }
        return [
            "BadRequest": problem(
                "Malformed JSON, not an object, an unknown field, a field of the wrong type, "
                    + "or a bad query parameter (limit, cursor, q)."),
            "Unauthorized": problem(
                "Missing, unknown or revoked token; or wrong email or password.",
                headers: ["WWW-Authenticate": ["$ref": "#/components/headers/WWW-Authenticate"]]),
            "Forbidden": problem(
                "Sign-up is disabled, the write would pass the account's quota of notes or of "
                    + "content bytes, or (changing the password) the current password is wrong."),
            "NotFound": problem(
                "No such note in this account (another account's note too), or no such session."
            ),
            "Conflict": problem("An account with this email already exists."),
            "PreconditionFailed": problem(
                "If-Match does not match: no tag names the note's current state (the "
                    + "current ETag and `currentVersion` come with it), or `*` and no note.",
                headers: [
                    "ETag": [
                        "description": "The note's current ETag (absent when there is no note).",
                        "schema": ["type": "string"],
                    ]
                ]),
            "ContentTooLarge": problem("content is longer than 65,536 bytes of UTF-8."),
            "UnsupportedMediaType": problem("The body is not application/json."),
            "UnprocessableContent": problem(
                "A required field is missing, or a value breaks its rules "
                    + "(email, password length, content, date)."),
            "TooManyRequests": problem(
                "Too many failed sign-ins (or current passwords) for this account or from this address, or "
                    + "too many sign-ups or sign-ins from this address or from everyone.",
                headers: [
                    "Retry-After": [
                        "description": "Seconds to wait.", "required": true,
                        "schema": ["type": "string"],
                    ]
                ]),
            "ServerError": problem("The database failed."),
            "CursorExpired": problem(
                "The cursor is older than the tombstones kept (--change-retention) or is not "
                    + "this database's: sync again from the start. `type` ends in "
                    + "cursor-expired."),
            "ServiceUnavailable": problem(
                "The server holds as many change streams as it may, or is overloaded.",
                headers: [
                    "Retry-After": [
                        "description": "Seconds to wait.", "required": true,
                        "schema": ["type": "string"],
                    ]
                ]),
        ]
    }

    /// The email rule of `Email(validating:)`, spaces around it allowed (dropped).
    static let emailPattern = EmailCharacters.pattern

    /// No control characters but tab, LF and CR, no U+FFFE or U+FFFF (`NoteContent`).
    static let contentPattern = #"^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]+$"#

    /// Exactly the dates `NoteDate` accepts: years 0001–9999, real calendar days (Gregorian
    /// leap years), and optional `HH:mm` or `HH:mm:ss`. Spelled out so that generated
    /// clients and fuzzers can tell a valid date without calling the server.
    static let datePattern: String = {
        let year = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)"
        let monthDay =
            "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)"
            + "|(?:0[13578]|1[02])-31)"
        let leapDay =
            "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][48]|[2468]0|[13579][26])00)"
            + "-02-29"
        let time = "(?: (?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?)?"
        return "^(?:\(year)-\(monthDay)|\(leapDay))\(time)$"
    }()

    private static func schemas() -> [String: Any] {
        let content: [String: Any] = [
            "type": "string", "minLength": 1, "pattern": contentPattern,
            "description": "1 to 65,536 bytes of UTF-8; no control characters but tab, LF "
                + "and CR; no U+FFFE or U+FFFF.",
        ]
        let date: [String: Any] = [
            "type": "string",
            "pattern": datePattern,
            "description": "yyyy-MM-dd, yyyy-MM-dd HH:mm or yyyy-MM-dd HH:mm:ss (a real date; "
                + "HH:mm is stored as HH:mm:00).",
            "examples": ["2026-11-29", "2026-11-29 18:30:00"],
        ]
        let timestamp: [String: Any] = ["type": "string", "format": "date-time"]
        return [
            "Credentials": [
                "type": "object", "additionalProperties": false,
                "required": ["email", "password"],
                "properties": [
                    "email": [
                        "type": "string", "maxLength": 254, "pattern": emailPattern,
                        "description": "One @ with text on both sides, at most 254 bytes; "
                            + "surrounding spaces are dropped. No spaces, control characters, "
                            + "bidirectional marks or invisible characters (NBSP, zero-width…), "
                            + "and before the @ no letters of two scripts (Latin, Greek, "
                            + "Cyrillic…) but Latin with Chinese, Japanese or Korean. Stored "
                            + "in Unicode NFC with the domain lower-cased.",
                    ],
                    "password": [
                        "type": "string", "minLength": 8,
                        "description": "At least 8 characters (code points), at most 1,024 bytes.",
                    ],
                ],
            ],
            "AccountCreated": [
                "type": "object", "required": ["email", "token"],
                "properties": ["email": ["type": "string"], "token": ["type": "string"]],
            ],
            "Session": [
                "type": "object", "required": ["token"],
                "properties": ["token": ["type": "string"]],
            ],
            "SessionInfo": [
                "type": "object",
                "required": ["id", "kind", "createdAt", "lastUsedAt", "expiresAt", "current"],
                "properties": [
                    "id": ["type": "string", "description": "For DELETE /api/v1/sessions/{id}."],
                    "kind": [
                        "type": "string", "enum": ["session", "accessKey"],
                        "description": "session: a sign-up's or sign-in's, which expires; "
                            + "accessKey: the operator's, for legacy apps, which does not.",
                    ],
                    "createdAt": timestamp,
                    "lastUsedAt": [
                        "type": "string", "format": "date-time",
                        "description": "Recorded at most once a minute.",
                    ],
                    "expiresAt": [
                        "type": ["string", "null"], "format": "date-time",
                        "description": "When it ends if not used again; null for never.",
                    ],
                    "current": [
                        "type": "boolean", "description": "Whether it is the token used.",
                    ],
                ],
            ],
            "SessionList": [
                "type": "object", "required": ["sessions"],
                "properties": ["sessions": ["type": "array", "items": schemaRef("SessionInfo")]],
            ],
            "Revoked": [
                "type": "object", "required": ["revoked"],
                "properties": ["revoked": ["type": "integer", "minimum": 0]],
            ],
            "PasswordChange": [
                "type": "object", "additionalProperties": false,
                "required": ["currentPassword", "newPassword"],
                "properties": [
                    "currentPassword": ["type": "string"],
                    "newPassword": [
                        "type": "string", "minLength": 8,
                        "description": "At least 8 characters (code points), at most 1,024 bytes.",
                    ],
                ],
            ],
            "Note": [
                "type": "object",
                "required": ["id", "date", "content", "createdAt", "updatedAt"],
                "properties": [
                    "id": ["type": "integer", "format": "int64", "minimum": 1],
                    "date": ["type": "string"], "content": ["type": "string"],
                    "createdAt": timestamp, "updatedAt": timestamp,
                    "snippet": [
                        "type": "string",
                        "description":
                            "In a search with snippet=true: up to 30 characters before the "
                            + "first match, the match and up to 70 after, on one line, with "
                            + "an ellipsis where the note goes on.",
                    ],
                ],
            ],
            "NotePage": [
                "type": "object", "required": ["notes", "nextCursor"],
                "properties": [
                    "notes": ["type": "array", "items": schemaRef("Note")],
                    "nextCursor": [
                        "type": ["string", "null"],
                        "description": "Pass as cursor for the next page; null on the last.",
                    ],
                ],
            ],
            "Change": [
                "type": "object", "required": ["cursor", "type", "id", "version", "note"],
                "properties": [
                    "cursor": [
                        "type": "string",
                        "description": "This change's position: pass as since (or "
                            + "Last-Event-ID) to continue after it.",
                    ],
                    "type": [
                        "type": "string", "enum": ["created", "updated", "deleted"],
                        "description": "created: made after the cursor asked from; updated: "
                            + "changed since; deleted: removed (a tombstone).",
                    ],
                    "id": ["type": "integer", "format": "int64", "minimum": 1],
                    "version": [
                        "type": "integer", "format": "int64", "minimum": 1,
                        "description": "The note's version (its ETag is \"<id>.<version>\"); "
                            + "for deleted, the last one.",
                    ],
                    "note": [
                        "anyOf": [schemaRef("Note"), ["type": "null"]],
                        "description": "The note as GET /api/v1/notes/{id} answers it; null "
                            + "for deleted.",
                    ],
                ],
            ],
            "ChangePage": [
                "type": "object", "required": ["changes", "cursor", "hasMore"],
                "properties": [
                    "changes": ["type": "array", "items": schemaRef("Change")],
                    "cursor": [
                        "type": "string",
                        "description": "Where the next call starts (pass as since).",
                    ],
                    "hasMore": [
                        "type": "boolean",
                        "description": "Whether more changes follow already.",
                    ],
                ],
            ],
            "NewNote": [
                "type": "object", "additionalProperties": false, "required": ["content"],
                "properties": [
                    "content": content,
                    "date": date.merging(["description": "Defaults to now (UTC)."]) { _, new in new
                    },
                ],
            ],
            "NoteReplacement": [
                "type": "object", "additionalProperties": false, "required": ["content", "date"],
                "properties": ["content": content, "date": date],
            ],
            "NotePatch": [
                "type": "object", "additionalProperties": false,
                "properties": ["content": content, "date": date],
            ],
            "Problem": [
                "type": "object", "required": ["type", "title", "status", "code", "detail"],
                "properties": [
                    "type": ["type": "string"], "title": ["type": "string"],
                    "status": ["type": "integer"],
                    "code": [
                        "type": "integer",
                        "description": "Stable: the legacy ResultCode where one fits (-9 "
                            + "authentication, -7 no such note, -5 no content, -6 no date, -8 "
                            + "invalid parameter, -3 data access, -2 quota), else the HTTP status.",
                    ],
                    "detail": [
                        "type": "string",
                        "description": "For people, in the Accept-Language (zh or en); names "
                            + "the field at fault.",
                    ],
                    "currentVersion": [
                        "type": "integer", "format": "int64", "minimum": 1,
                        "description": "412 only: the version the note is at now.",
                    ],
                ],
            ],
        ]
    }
}
