extension OpenAPIDocument {
    /// The paths of the history pages and streams.
    static let historyPaths = #"""
{
  "/v1/history/{kind}": {
    "get": {
      "operationId": "getHistory",
      "tags": ["history"],
      "summary": "One page of changes",
      "description": "Up to `limit` changes after `since` (without since: every current record as inserted), `newToken` to pass as the next `since`, and `hasMore` when more changes follow it already. Caught up, the page is empty and `newToken` is `since` again. Needs the data type of the kind.",
      "parameters": [
        {"$ref": "#/components/parameters/historyKind"},
        {"$ref": "#/components/parameters/historyAccount"},
        {"$ref": "#/components/parameters/since"},
        {
          "name": "limit",
          "in": "query",
          "required": false,
          "description": "Most changes in the batch.",
          "schema": {"type": "integer", "minimum": 1, "maximum": 5000, "default": 500}
        }
      ],
      "responses": {
        "200": {
          "description": "One batch of changes, of the kind's model.",
          "content": {
            "application/json": {
              "schema": {
                "anyOf": [
                  {"$ref": "#/components/schemas/TransactionChanges"},
                  {"$ref": "#/components/schemas/AccountChanges"},
                  {"$ref": "#/components/schemas/AccountBalanceChanges"}
                ],
                "required": ["hasMore"]
              }
            }
          },
          "links": {
            "getNextChanges": {
              "operationId": "getHistory",
              "parameters": {"kind": "$request.path.kind", "since": "$response.body#/newToken"},
              "description": "The changes after this batch: newToken as since, of the same kind."
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "404": {"$ref": "#/components/responses/NotFound"},
        "410": {"$ref": "#/components/responses/Gone"}
      }
    }
  },
  "/v1/history/{kind}/stream": {
    "get": {
      "operationId": "streamHistory",
      "tags": ["history"],
      "summary": "Changes as Server-Sent Events",
      "description": "A `text/event-stream` that stays open: a comment and `retry: 2000` first, then one `changes` event per batch (`data` a Changes object of the kind, without `hasMore`; `id` its newToken, which resumes after it), a `: heartbeat` comment every 15 seconds (coffer serve --heartbeat), and on an error after the stream opened (the grant changed, the token is no longer valid) one `error` event whose data is a Problem, then the end. A reconnecting EventSource sends the last id back as `Last-Event-ID`, which wins over `since`. An empty since or Last-Event-ID starts from the current state, as no since does; a since that is not valid here answers 410 before the stream opens.",
      "parameters": [
        {"$ref": "#/components/parameters/historyKind"},
        {"$ref": "#/components/parameters/historyAccount"},
        {"$ref": "#/components/parameters/since"},
        {
          "name": "Last-Event-ID",
          "in": "header",
          "required": false,
          "description": "The last event id received (an EventSource sends it when reconnecting); wins over since. Empty means from the start.",
          "schema": {"type": "string"}
        }
      ],
      "responses": {
        "200": {
          "description": "The event stream.",
          "headers": {
            "Cache-Control": {
              "schema": {"type": "string", "const": "no-cache"}
            }
          },
          "content": {
            "text/event-stream": {
              "schema": {"type": "string"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "404": {"$ref": "#/components/responses/NotFound"},
        "410": {"$ref": "#/components/responses/Gone"}
      }
    }
  }
}
"""#
}
