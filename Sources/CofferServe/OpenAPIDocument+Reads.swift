extension OpenAPIDocument {
    /// The paths of the read routes, authorization and orders.
    static let readPaths = #"""
{
  "/openapi.json": {
    "get": {
      "operationId": "getOpenAPIDocument",
      "tags": ["meta"],
      "summary": "This OpenAPI document",
      "description": "Needs no token.",
      "security": [],
      "responses": {
        "200": {
          "description": "The OpenAPI 3.1 document of this server.",
          "content": {
            "application/json": {
              "schema": {"type": "object", "required": ["openapi", "info", "paths"]}
            }
          }
        }
      }
    }
  },
  "/v1/accounts": {
    "get": {
      "operationId": "listAccounts",
      "tags": ["accounts"],
      "summary": "The granted accounts",
      "description": "Every account of the client's grant (needs the accounts data type).",
      "responses": {
        "200": {
          "description": "The accounts.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/AccountList"}
            }
          },
          "links": {
            "getFirstAccount": {
              "operationId": "getAccount",
              "parameters": {"id": "$response.body#/accounts/0/id"},
              "description": "The first account of the list, by its id."
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"}
      }
    }
  },
  "/v1/accounts/{id}": {
    "get": {
      "operationId": "getAccount",
      "tags": ["accounts"],
      "summary": "One account",
      "description": "One account of the client's grant. An id that is not a UUID, that no account has, or that the grant does not name answers the same 404.",
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The account's id.",
          "schema": {"type": "string"}
        }
      ],
      "responses": {
        "200": {
          "description": "The account.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/Account"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "404": {"$ref": "#/components/responses/NotFound"}
      }
    }
  },
  "/v1/balances": {
    "get": {
      "operationId": "listBalances",
      "tags": ["accounts"],
      "summary": "Account balances",
      "description": "Every balance of the granted accounts the grant's earliest dates allow (needs the accountBalances data type), or only the latest of each account.",
      "parameters": [
        {"$ref": "#/components/parameters/accountList"},
        {
          "name": "latest",
          "in": "query",
          "required": false,
          "description": "Only each account's latest balance.",
          "schema": {"type": "boolean", "default": false}
        }
      ],
      "responses": {
        "200": {
          "description": "The balances.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/BalanceList"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"}
      }
    }
  },
  "/v1/transactions": {
    "get": {
      "operationId": "listTransactions",
      "tags": ["transactions"],
      "summary": "A page of transactions",
      "description": "Transactions of the granted accounts (needs the transactions data type), filtered, sorted and paged. `nextCursor` is absent on the last page; pass it back as `after` with the same filters and sort for the next one. A transaction linked to an order carries `orderID` when the client is also granted orders.",
      "parameters": [
        {"$ref": "#/components/parameters/accountList"},
        {
          "name": "from",
          "in": "query",
          "required": false,
          "description": "On or after this day (the bank's own day of the transaction).",
          "schema": {"type": "string", "format": "date"}
        },
        {
          "name": "to",
          "in": "query",
          "required": false,
          "description": "On or before this day.",
          "schema": {"type": "string", "format": "date"}
        },
        {
          "name": "status",
          "in": "query",
          "required": false,
          "style": "form",
          "explode": false,
          "description": "Any of these statuses, comma-separated (any letter case).",
          "schema": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "enum": ["authorized", "booked", "memo", "pending", "rejected"]}
          }
        },
        {
          "name": "type",
          "in": "query",
          "required": false,
          "style": "form",
          "explode": false,
          "description": "Any of these transaction types, comma-separated (any letter case).",
          "schema": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/components/schemas/TransactionType"}
          }
        },
        {
          "name": "mcc",
          "in": "query",
          "required": false,
          "style": "form",
          "explode": false,
          "description": "Any of these merchant category codes, comma-separated (5411; `MCC 5411` and a code's description are accepted too).",
          "schema": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "pattern": "^[0-9]{1,4}$"}
          }
        },
        {
          "name": "text",
          "in": "query",
          "required": false,
          "description": "Full-text search of descriptions and merchant names (docs/search.md).",
          "schema": {"type": "string"}
        },
        {
          "name": "min",
          "in": "query",
          "required": false,
          "description": "Amount at least this (the positive transactionAmount), a decimal like 12.50.",
          "schema": {"type": "string", "pattern": "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$"}
        },
        {
          "name": "max",
          "in": "query",
          "required": false,
          "description": "Amount at most this, a decimal like 100.",
          "schema": {"type": "string", "pattern": "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$"}
        },
        {
          "name": "direction",
          "in": "query",
          "required": false,
          "description": "Only money out (debit) or in (credit).",
          "schema": {"type": "string", "enum": ["debit", "credit"]}
        },
        {
          "name": "sort",
          "in": "query",
          "required": false,
          "description": "date (the bank's own day, then the instant), amount or posted; descending with a leading `-` or a `:desc` suffix. Default: date ascending.",
          "schema": {"type": "string", "pattern": "^[-+]?(date|amount|posted)(:asc|:desc)?$", "default": "date"}
        },
        {
          "name": "limit",
          "in": "query",
          "required": false,
          "description": "Most transactions in the page.",
          "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}
        },
        {
          "name": "after",
          "in": "query",
          "required": false,
          "description": "A previous page's nextCursor (with the same filters and sort). A cursor Coffer did not make, or one of another sort, is a 400.",
          "schema": {"type": "string"}
        }
      ],
      "responses": {
        "200": {
          "description": "One page.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/TransactionPage"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"}
      }
    }
  },
  "/v1/authorization": {
    "get": {
      "operationId": "getAuthorization",
      "tags": ["authorization"],
      "summary": "The client's authorization status",
      "description": "FinanceKit's authorizationStatus(): the owner's decision and, when authorized, the grant. Any client with a valid token may ask, whatever its status.",
      "responses": {
        "200": {
          "description": "The status.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/Authorization"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"}
      }
    },
    "post": {
      "operationId": "requestAuthorization",
      "tags": ["authorization"],
      "summary": "Ask the owner for access",
      "description": "FinanceKit's requestAuthorization(): while the owner has not decided, records the request (coffer clients list shows it pending); answers the status as GET does. It never authorizes anything. Takes no body.",
      "responses": {
        "200": {
          "description": "The status.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/Authorization"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"}
      }
    }
  },
  "/v1/orders": {
    "post": {
      "operationId": "saveOrder",
      "tags": ["orders"],
      "summary": "Save a signed Wallet order archive",
      "description": "FinanceKit's saveOrder(signedArchive:): the body is the archive (a zip of order.json, manifest.json and signature). The manifest is always verified (every file's SHA-256, nothing unlisted, no path outside the archive, size and compression limits); the CMS signature only when the server has trust anchors (coffer serve --trust, $COFFER_ORDER_TRUST), which signatureVerified says. A refused archive is a 400 naming the check, and nothing is stored. The order belongs to the client that saved it. Needs the orders data type.",
      "requestBody": {
        "required": true,
        "content": {
          "application/vnd.apple.finance.order": {
            "schema": {"type": "string", "format": "binary"}
          },
          "application/octet-stream": {
            "schema": {"type": "string", "format": "binary"}
          }
        }
      },
      "responses": {
        "200": {
          "description": "What was done.",
          "content": {
            "application/json": {
              "schema": {"$ref": "#/components/schemas/SaveOrderResult"}
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "413": {
          "description": "The archive is larger than the limit.",
          "content": {
            "application/problem+json": {
              "schema": {"$ref": "#/components/schemas/Problem"}
            }
          }
        }
      }
    }
  },
  "/v1/orders/contains": {
    "get": {
      "operationId": "containsOrder",
      "tags": ["orders"],
      "summary": "Whether an order is stored",
      "description": "FinanceKit's containsOrder(matching:updatedDate:), among the orders this client saved (another client's are notFound). Needs the orders data type.",
      "parameters": [
        {
          "name": "orderTypeIdentifier",
          "in": "query",
          "required": true,
          "schema": {"type": "string", "minLength": 1},
          "example": "order.com.example.greenleaf"
        },
        {
          "name": "orderIdentifier",
          "in": "query",
          "required": true,
          "schema": {"type": "string", "minLength": 1},
          "example": "GL-2026-0301-7731"
        },
        {
          "name": "updatedDate",
          "in": "query",
          "required": false,
          "description": "Compare the stored version with this instant (ISO 8601).",
          "schema": {"type": "string", "format": "date-time"}
        }
      ],
      "responses": {
        "200": {
          "description": "The answer.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": ["result"],
                "properties": {
                  "result": {"type": "string", "enum": ["exists", "newerExists", "olderExists", "notFound"]}
                }
              }
            }
          }
        },
        "400": {"$ref": "#/components/responses/BadRequest"},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"}
      }
    }
  }
}
"""#
}
