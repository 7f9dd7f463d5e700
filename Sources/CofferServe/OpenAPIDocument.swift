/// The OpenAPI 3.1 document of `coffer serve`, written by hand and served at `GET /openapi.json`. A test checks it
/// against the router (every route documented, every documented route answering), and `scripts/fuzz-api.sh` runs
/// schemathesis from it.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Coffer",
    "version": "1",
    "summary": "A Coffer store over HTTP for programs other than its owner, each reading through its grant.",
    "description": "Served by `coffer serve` (docs/serve.md). Every /v1 request carries `Authorization: Bearer TOKEN`, the token `coffer clients add NAME` printed, and reads only what its client's grant allows (`coffer clients authorize NAME`): anything outside the grant answers 404 exactly as what does not exist. Bodies are the CLI's JSON (FinanceKit's property names, keys sorted, optional keys left out when absent, amounts as exact decimal strings, enums as case names). Errors are RFC 9457 `application/problem+json`. Every route reads its query strictly: an unknown parameter, a parameter given twice, or a value that is not what the parameter takes is a 400 naming the parameter."
  },
  "security": [
    {
      "bearer": []
    }
  ],
  "tags": [
    {
      "name": "accounts",
      "description": "Accounts and their balances."
    },
    {
      "name": "transactions",
      "description": "Transactions, filtered, sorted and paged."
    },
    {
      "name": "history",
      "description": "The store's change history, by page or as Server-Sent Events."
    },
    {
      "name": "authorization",
      "description": "FinanceKit's authorizationStatus() and requestAuthorization()."
    },
    {
      "name": "meta",
      "description": "This document."
    },
    {
      "name": "orders",
      "description": "Wallet orders, FinanceKit's saveOrder and containsOrder."
    }
  ],
  "paths": {
    "/openapi.json": {
      "get": {
        "operationId": "getOpenAPIDocument",
        "tags": [
          "meta"
        ],
        "summary": "This OpenAPI document",
        "description": "Needs no token.",
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document of this server.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "openapi",
                    "info",
                    "paths"
                  ]
                }
              }
            }
          }
        }
      }
    },
    "/v1/accounts": {
      "get": {
        "operationId": "listAccounts",
        "tags": [
          "accounts"
        ],
        "summary": "The granted accounts",
        "description": "Every account of the client's grant (needs the accounts data type).",
        "responses": {
          "200": {
            "description": "The accounts.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AccountList"
                }
              }
            },
            "links": {
              "getFirstAccount": {
                "operationId": "getAccount",
                "parameters": {
                  "id": "$response.body#/accounts/0/id"
                },
                "description": "The first account of the list, by its id."
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/v1/accounts/{id}": {
      "get": {
        "operationId": "getAccount",
        "tags": [
          "accounts"
        ],
        "summary": "One account",
        "description": "One account of the client's grant. An id that is not a UUID, that no account has, or that the grant does not name answers the same 404.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The account's id.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Account"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          }
        }
      }
    },
    "/v1/balances": {
      "get": {
        "operationId": "listBalances",
        "tags": [
          "accounts"
        ],
        "summary": "Account balances",
        "description": "Every balance of the granted accounts the grant's earliest dates allow (needs the accountBalances data type), or only the latest of each account.",
        "parameters": [
          {
            "$ref": "#/components/parameters/accountList"
          },
          {
            "name": "latest",
            "in": "query",
            "required": false,
            "description": "Only each account's latest balance.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The balances.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/BalanceList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/v1/transactions": {
      "get": {
        "operationId": "listTransactions",
        "tags": [
          "transactions"
        ],
        "summary": "A page of transactions",
        "description": "Transactions of the granted accounts (needs the transactions data type), filtered, sorted and paged. `nextCursor` is absent on the last page; pass it back as `after` with the same filters and sort for the next one. A transaction linked to an order carries `orderID` when the client is also granted orders.",
        "parameters": [
          {
            "$ref": "#/components/parameters/accountList"
          },
          {
            "name": "from",
            "in": "query",
            "required": false,
            "description": "On or after this day (the bank's own day of the transaction).",
            "schema": {
              "type": "string",
              "format": "date"
            }
          },
          {
            "name": "to",
            "in": "query",
            "required": false,
            "description": "On or before this day.",
            "schema": {
              "type": "string",
              "format": "date"
            }
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
              "items": {
                "type": "string",
                "enum": [
                  "authorized",
                  "booked",
                  "memo",
                  "pending",
                  "rejected"
                ]
              }
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
              "items": {
                "type": "string",
                "enum": [
                  "adjustment",
                  "atm",
                  "billPayment",
                  "check",
                  "deposit",
                  "directDebit",
                  "directDeposit",
                  "dividend",
                  "fee",
                  "interest",
                  "loan",
                  "pointOfSale",
                  "refund",
                  "standingOrder",
                  "transfer",
                  "unknown",
                  "withdrawal"
                ]
              }
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
              "items": {
                "type": "string",
                "pattern": "^[0-9]{1,4}$"
              }
            }
          },
          {
            "name": "text",
            "in": "query",
            "required": false,
            "description": "Full-text search of descriptions and merchant names (docs/search.md).",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "min",
            "in": "query",
            "required": false,
            "description": "Amount at least this (the positive transactionAmount), a decimal like 12.50.",
            "schema": {
              "type": "string",
              "pattern": "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$"
            }
          },
          {
            "name": "max",
            "in": "query",
            "required": false,
            "description": "Amount at most this, a decimal like 100.",
            "schema": {
              "type": "string",
              "pattern": "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$"
            }
          },
          {
            "name": "direction",
            "in": "query",
            "required": false,
            "description": "Only money out (debit) or in (credit).",
            "schema": {
              "type": "string",
              "enum": [
                "debit",
                "credit"
              ]
            }
          },
          {
            "name": "sort",
            "in": "query",
            "required": false,
            "description": "date (the bank's own day, then the instant), amount or posted; descending with a leading `-` or a `:desc` suffix. Default: date ascending.",
            "schema": {
              "type": "string",
              "pattern": "^[-+]?(date|amount|posted)(:asc|:desc)?$",
              "default": "date"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Most transactions in the page.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000,
              "default": 100
            }
          },
          {
            "name": "after",
            "in": "query",
            "required": false,
            "description": "A previous page's nextCursor (with the same filters and sort). A cursor Coffer did not make, or one of another sort, is a 400.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TransactionPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/v1/authorization": {
      "get": {
        "operationId": "getAuthorization",
        "tags": [
          "authorization"
        ],
        "summary": "The client's authorization status",
        "description": "FinanceKit's authorizationStatus(): the owner's decision and, when authorized, the grant. Any client with a valid token may ask, whatever its status.",
        "responses": {
          "200": {
            "description": "The status.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Authorization"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "post": {
        "operationId": "requestAuthorization",
        "tags": [
          "authorization"
        ],
        "summary": "Ask the owner for access",
        "description": "FinanceKit's requestAuthorization(): while the owner has not decided, records the request (coffer clients list shows it pending); answers the status as GET does. It never authorizes anything. Takes no body.",
        "responses": {
          "200": {
            "description": "The status.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Authorization"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/v1/history/{kind}": {
      "get": {
        "operationId": "getHistory",
        "tags": [
          "history"
        ],
        "summary": "One page of changes",
        "description": "Up to `limit` changes after `since` (without since: every current record as inserted), `newToken` to pass as the next `since`, and `hasMore` when more changes follow it already. Caught up, the page is empty and `newToken` is `since` again. Needs the data type of the kind.",
        "parameters": [
          {
            "$ref": "#/components/parameters/historyKind"
          },
          {
            "$ref": "#/components/parameters/historyAccount"
          },
          {
            "$ref": "#/components/parameters/since"
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Most changes in the batch.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 5000,
              "default": 500
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One batch of changes, of the kind's model.",
            "content": {
              "application/json": {
                "schema": {
                  "anyOf": [
                    {
                      "$ref": "#/components/schemas/TransactionChanges"
                    },
                    {
                      "$ref": "#/components/schemas/AccountChanges"
                    },
                    {
                      "$ref": "#/components/schemas/AccountBalanceChanges"
                    }
                  ],
                  "required": [
                    "hasMore"
                  ]
                }
              }
            },
            "links": {
              "getNextChanges": {
                "operationId": "getHistory",
                "parameters": {
                  "kind": "$request.path.kind",
                  "since": "$response.body#/newToken"
                },
                "description": "The changes after this batch: newToken as since, of the same kind."
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "410": {
            "$ref": "#/components/responses/Gone"
          }
        }
      }
    },
    "/v1/history/{kind}/stream": {
      "get": {
        "operationId": "streamHistory",
        "tags": [
          "history"
        ],
        "summary": "Changes as Server-Sent Events",
        "description": "A `text/event-stream` that stays open: a comment and `retry: 2000` first, then one `changes` event per batch (`data` a Changes object of the kind, without `hasMore`; `id` its newToken, which resumes after it), a `: heartbeat` comment every 15 seconds (coffer serve --heartbeat), and on an error after the stream opened (the grant changed, the token is no longer valid) one `error` event whose data is a Problem, then the end. A reconnecting EventSource sends the last id back as `Last-Event-ID`, which wins over `since`. An empty since or Last-Event-ID starts from the current state, as no since does; a since that is not valid here answers 410 before the stream opens.",
        "parameters": [
          {
            "$ref": "#/components/parameters/historyKind"
          },
          {
            "$ref": "#/components/parameters/historyAccount"
          },
          {
            "$ref": "#/components/parameters/since"
          },
          {
            "name": "Last-Event-ID",
            "in": "header",
            "required": false,
            "description": "The last event id received (an EventSource sends it when reconnecting); wins over since. Empty means from the start.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The event stream.",
            "headers": {
              "Cache-Control": {
                "schema": {
                  "type": "string",
                  "const": "no-cache"
                }
              }
            },
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "410": {
            "$ref": "#/components/responses/Gone"
          }
        }
      }
    },
    "/v1/orders": {
      "post": {
        "operationId": "saveOrder",
        "tags": [
          "orders"
        ],
        "summary": "Save a signed Wallet order archive",
        "description": "FinanceKit's saveOrder(signedArchive:): the body is the archive (a zip of order.json, manifest.json and signature). The manifest is always verified (every file's SHA-256, nothing unlisted, no path outside the archive, size and compression limits); the CMS signature only when the server has trust anchors (coffer serve --trust, $COFFER_ORDER_TRUST), which signatureVerified says. A refused archive is a 400 naming the check, and nothing is stored. The order belongs to the client that saved it. Needs the orders data type.",
        "requestBody": {
          "required": true,
          "content": {
            "application/vnd.apple.finance.order": {
              "schema": {
                "type": "string",
                "format": "binary"
              }
            },
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "format": "binary"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "What was done.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SaveOrderResult"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "413": {
            "description": "The archive is larger than the limit.",
            "content": {
              "application/problem+json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          }
        }
      }
    },
    "/v1/orders/contains": {
      "get": {
        "operationId": "containsOrder",
        "tags": [
          "orders"
        ],
        "summary": "Whether an order is stored",
        "description": "FinanceKit's containsOrder(matching:updatedDate:), among the orders this client saved (another client's are notFound). Needs the orders data type.",
        "parameters": [
          {
            "name": "orderTypeIdentifier",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "example": "order.com.example.greenleaf"
          },
          {
            "name": "orderIdentifier",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "example": "GL-2026-0301-7731"
          },
          {
            "name": "updatedDate",
            "in": "query",
            "required": false,
            "description": "Compare the stored version with this instant (ISO 8601).",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "result"
                  ],
                  "properties": {
                    "result": {
                      "type": "string",
                      "enum": [
                        "exists",
                        "newerExists",
                        "olderExists",
                        "notFound"
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A client's token (`coffer_` and 256 random bits), printed once by `coffer clients add NAME`. A missing, unknown or revoked token is a 401."
      }
    },
    "parameters": {
      "accountList": {
        "name": "account",
        "in": "query",
        "required": false,
        "style": "form",
        "explode": false,
        "description": "Only these accounts, by id, comma-separated.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "format": "uuid"
          }
        }
      },
      "historyKind": {
        "name": "kind",
        "in": "path",
        "required": true,
        "description": "Which stream: FinanceKit's model names. Any other name is a 404.",
        "schema": {
          "type": "string",
          "enum": [
            "transactions",
            "accounts",
            "accountBalances"
          ]
        }
      },
      "historyAccount": {
        "name": "account",
        "in": "query",
        "required": false,
        "description": "The stream of one account (transactions and accountBalances only; the accounts stream takes none, and more than one id is a 400).",
        "schema": {
          "type": "string",
          "format": "uuid"
        }
      },
      "since": {
        "name": "since",
        "in": "query",
        "required": false,
        "description": "A newToken from before (empty is absent). A token of another store, client or grant, a compacted or altered one, is a 410: read again without since.",
        "schema": {
          "type": "string"
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "A query parameter is unknown, given twice, or not a value it takes (the detail names it).",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "No bearer token, or one that is unknown or revoked (not told apart).",
        "headers": {
          "WWW-Authenticate": {
            "description": "`Bearer realm=\"coffer\"`.",
            "schema": {
              "type": "string"
            }
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Forbidden": {
        "description": "The client is not authorized, or its grant lacks this data type.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "NotFound": {
        "description": "Nothing at this address, or nothing the grant shows (one fixed body either way).",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Gone": {
        "description": "The history token is not valid here: read again without since.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      }
    },
    "schemas": {
      "Problem": {
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": [
          "detail",
          "status",
          "title",
          "type"
        ],
        "properties": {
          "detail": {
            "type": "string"
          },
          "status": {
            "type": "integer",
            "minimum": 400,
            "maximum": 599
          },
          "title": {
            "type": "string"
          },
          "type": {
            "type": "string",
            "format": "uri-reference",
            "examples": [
              "about:blank"
            ]
          }
        }
      },
      "DateText": {
        "type": "string",
        "description": "A calendar day (`2026-03-14`, a statement that gave no time) or an ISO 8601 instant with its offset (`2026-03-14T09:30:00Z`, `2026-03-31T20:00:00-08:00`, milliseconds when it has a fraction of a second).",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2}))?$"
      },
      "Decimal": {
        "type": "string",
        "description": "An exact decimal number as text, never a binary float.",
        "pattern": "^-?[0-9]+(\\.[0-9]+)?$"
      },
      "CurrencyAmount": {
        "type": "object",
        "description": "An amount in one currency; in transactions and balances always positive (creditDebitIndicator gives the direction), padded to the currency's minor units.",
        "required": [
          "amount",
          "currencyCode"
        ],
        "properties": {
          "amount": {
            "$ref": "#/components/schemas/Decimal"
          },
          "currencyCode": {
            "type": "string",
            "description": "ISO 4217, e.g. USD."
          }
        },
        "examples": [
          {
            "amount": "12.50",
            "currencyCode": "USD"
          }
        ]
      },
      "CreditDebitIndicator": {
        "type": "string",
        "enum": [
          "credit",
          "debit"
        ]
      },
      "TransactionStatus": {
        "type": "string",
        "enum": [
          "authorized",
          "booked",
          "memo",
          "pending",
          "rejected"
        ]
      },
      "TransactionType": {
        "type": "string",
        "enum": [
          "adjustment",
          "atm",
          "billPayment",
          "check",
          "deposit",
          "directDebit",
          "directDeposit",
          "dividend",
          "fee",
          "interest",
          "loan",
          "pointOfSale",
          "refund",
          "standingOrder",
          "transfer",
          "unknown",
          "withdrawal"
        ]
      },
      "AuthorizationStatus": {
        "type": "string",
        "enum": [
          "authorized",
          "denied",
          "notDetermined"
        ]
      },
      "DataType": {
        "type": "string",
        "enum": [
          "accounts",
          "accountBalances",
          "transactions",
          "orders"
        ]
      },
      "Account": {
        "description": "An asset (bank, savings) or a liability (credit card, loan) account, flat, told apart by kind.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/AssetAccount"
          },
          {
            "$ref": "#/components/schemas/LiabilityAccount"
          }
        ],
        "discriminator": {
          "propertyName": "kind",
          "mapping": {
            "asset": "#/components/schemas/AssetAccount",
            "liability": "#/components/schemas/LiabilityAccount"
          }
        }
      },
      "AssetAccount": {
        "type": "object",
        "required": [
          "currencyCode",
          "displayName",
          "id",
          "institutionName",
          "kind"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "const": "asset"
          },
          "id": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "displayName": {
            "type": "string"
          },
          "accountDescription": {
            "type": "string"
          },
          "institutionName": {
            "type": "string"
          },
          "currencyCode": {
            "type": "string"
          },
          "openingDate": {
            "$ref": "#/components/schemas/DateText"
          }
        }
      },
      "LiabilityAccount": {
        "type": "object",
        "required": [
          "creditInformation",
          "currencyCode",
          "displayName",
          "id",
          "institutionName",
          "kind"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "const": "liability"
          },
          "id": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "displayName": {
            "type": "string"
          },
          "accountDescription": {
            "type": "string"
          },
          "institutionName": {
            "type": "string"
          },
          "currencyCode": {
            "type": "string"
          },
          "openingDate": {
            "$ref": "#/components/schemas/DateText"
          },
          "creditInformation": {
            "$ref": "#/components/schemas/AccountCreditInformation"
          }
        }
      },
      "AccountCreditInformation": {
        "type": "object",
        "description": "What the statements gave; every key is optional.",
        "properties": {
          "creditLimit": {
            "$ref": "#/components/schemas/CurrencyAmount"
          },
          "minimumNextPaymentAmount": {
            "$ref": "#/components/schemas/CurrencyAmount"
          },
          "nextPaymentDueDate": {
            "$ref": "#/components/schemas/DateText"
          },
          "overduePaymentAmount": {
            "$ref": "#/components/schemas/CurrencyAmount"
          }
        }
      },
      "AccountBalance": {
        "type": "object",
        "required": [
          "accountID",
          "currentBalance",
          "id"
        ],
        "properties": {
          "id": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "accountID": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "currentBalance": {
            "$ref": "#/components/schemas/CurrentBalance"
          }
        }
      },
      "CurrentBalance": {
        "type": "object",
        "description": "The available balance, the booked balance, or both.",
        "properties": {
          "available": {
            "$ref": "#/components/schemas/Balance"
          },
          "booked": {
            "$ref": "#/components/schemas/Balance"
          }
        },
        "anyOf": [
          {
            "required": [
              "available"
            ]
          },
          {
            "required": [
              "booked"
            ]
          }
        ]
      },
      "Balance": {
        "type": "object",
        "required": [
          "amount",
          "asOfDate",
          "creditDebitIndicator"
        ],
        "properties": {
          "amount": {
            "$ref": "#/components/schemas/CurrencyAmount"
          },
          "asOfDate": {
            "$ref": "#/components/schemas/DateText"
          },
          "creditDebitIndicator": {
            "$ref": "#/components/schemas/CreditDebitIndicator"
          }
        }
      },
      "Transaction": {
        "type": "object",
        "description": "FinanceKit's transaction properties, Coffer's timeZoneOffset, and (in GET /v1/transactions, for a client granted orders) the linked order's orderID. transactionDate is in the statement's own offset when it gave a time, else a calendar day.",
        "required": [
          "accountID",
          "creditDebitIndicator",
          "id",
          "originalTransactionDescription",
          "status",
          "transactionAmount",
          "transactionDate",
          "transactionDescription",
          "transactionType"
        ],
        "properties": {
          "id": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "accountID": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          },
          "transactionAmount": {
            "$ref": "#/components/schemas/CurrencyAmount"
          },
          "foreignCurrencyAmount": {
            "$ref": "#/components/schemas/CurrencyAmount"
          },
          "foreignCurrencyExchangeRate": {
            "$ref": "#/components/schemas/Decimal"
          },
          "creditDebitIndicator": {
            "$ref": "#/components/schemas/CreditDebitIndicator"
          },
          "transactionDescription": {
            "type": "string"
          },
          "originalTransactionDescription": {
            "type": "string"
          },
          "merchantCategoryCode": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9999,
            "description": "ISO 18245, e.g. 5411."
          },
          "merchantName": {
            "type": "string"
          },
          "transactionType": {
            "$ref": "#/components/schemas/TransactionType"
          },
          "status": {
            "$ref": "#/components/schemas/TransactionStatus"
          },
          "transactionDate": {
            "$ref": "#/components/schemas/DateText"
          },
          "postedDate": {
            "$ref": "#/components/schemas/DateText"
          },
          "timeZoneOffset": {
            "type": "integer",
            "description": "Seconds east of UTC of the time the statement gave; absent when it gave only a day."
          },
          "orderID": {
            "type": "string",
            "format": "uuid",
            "description": "A UUID, as Swift's uuidString writes it (uppercase)."
          }
        }
      },
      "AccountList": {
        "type": "object",
        "required": [
          "accounts"
        ],
        "properties": {
          "accounts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Account"
            }
          }
        }
      },
      "BalanceList": {
        "type": "object",
        "required": [
          "balances"
        ],
        "properties": {
          "balances": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AccountBalance"
            }
          }
        }
      },
      "TransactionPage": {
        "type": "object",
        "required": [
          "transactions"
        ],
        "properties": {
          "nextCursor": {
            "type": "string",
            "description": "Absent on the last page."
          },
          "transactions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Transaction"
            }
          }
        }
      },
      "Authorization": {
        "type": "object",
        "description": "The client's name and status; when authorized, its grant: accounts (each with its earliest day, when it has one) and data types.",
        "required": [
          "client",
          "status"
        ],
        "properties": {
          "accounts": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "accountID"
              ],
              "properties": {
                "accountID": {
                  "type": "string",
                  "format": "uuid",
                  "description": "A UUID, as Swift's uuidString writes it (uppercase)."
                },
                "earliestDate": {
                  "type": "string",
                  "format": "date"
                }
              }
            }
          },
          "client": {
            "type": "string"
          },
          "dataTypes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DataType"
            }
          },
          "status": {
            "$ref": "#/components/schemas/AuthorizationStatus"
          }
        }
      },
      "TransactionChanges": {
        "type": "object",
        "description": "A batch of the transactions stream.",
        "required": [
          "deleted",
          "inserted",
          "newToken",
          "updated"
        ],
        "properties": {
          "deleted": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uuid",
              "description": "A UUID, as Swift's uuidString writes it (uppercase)."
            },
            "description": "Ids of records removed."
          },
          "hasMore": {
            "type": "boolean",
            "description": "More changes follow newToken already (GET /v1/history/{kind} only; absent in stream events)."
          },
          "inserted": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Transaction"
            }
          },
          "newToken": {
            "type": "string",
            "description": "Pass as since to resume after this batch."
          },
          "updated": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Transaction"
            },
            "description": "Records as they are now."
          }
        }
      },
      "AccountChanges": {
        "type": "object",
        "description": "A batch of the accounts stream.",
        "required": [
          "deleted",
          "inserted",
          "newToken",
          "updated"
        ],
        "properties": {
          "deleted": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uuid",
              "description": "A UUID, as Swift's uuidString writes it (uppercase)."
            },
            "description": "Ids of records removed."
          },
          "hasMore": {
            "type": "boolean",
            "description": "More changes follow newToken already (GET /v1/history/{kind} only; absent in stream events)."
          },
          "inserted": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Account"
            }
          },
          "newToken": {
            "type": "string",
            "description": "Pass as since to resume after this batch."
          },
          "updated": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Account"
            },
            "description": "Records as they are now."
          }
        }
      },
      "AccountBalanceChanges": {
        "type": "object",
        "description": "A batch of the accountBalances stream.",
        "required": [
          "deleted",
          "inserted",
          "newToken",
          "updated"
        ],
        "properties": {
          "deleted": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uuid",
              "description": "A UUID, as Swift's uuidString writes it (uppercase)."
            },
            "description": "Ids of records removed."
          },
          "hasMore": {
            "type": "boolean",
            "description": "More changes follow newToken already (GET /v1/history/{kind} only; absent in stream events)."
          },
          "inserted": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AccountBalance"
            }
          },
          "newToken": {
            "type": "string",
            "description": "Pass as since to resume after this batch."
          },
          "updated": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AccountBalance"
            },
            "description": "Records as they are now."
          }
        }
      },
      "SaveOrderResult": {
        "type": "object",
        "required": [
          "orderID",
          "result",
          "signatureVerified"
        ],
        "properties": {
          "orderID": {
            "type": [
              "string",
              "null"
            ],
            "format": "uuid",
            "description": "The stored order's id (null when nothing was stored)."
          },
          "result": {
            "type": "string",
            "enum": [
              "added",
              "cancelled",
              "newerExisting"
            ]
          },
          "signatureVerified": {
            "type": "boolean",
            "description": "Whether the signature was verified against the server's trust anchors (false: only the manifest was)."
          }
        }
      }
    }
  }
}
"""#
}
