extension OpenAPIDocument {
    /// The rest of `components`: shared parameters, error responses and the bearer scheme.
    static let shared = #"""
{
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
        "items": {"type": "string", "format": "uuid"}
      }
    },
    "historyKind": {
      "name": "kind",
      "in": "path",
      "required": true,
      "description": "Which stream: FinanceKit's model names. Any other name is a 404.",
      "schema": {"type": "string", "enum": ["transactions", "accounts", "accountBalances"]}
    },
    "historyAccount": {
      "name": "account",
      "in": "query",
      "required": false,
      "description": "The stream of one account (transactions and accountBalances only; the accounts stream takes none, and more than one id is a 400).",
      "schema": {"type": "string", "format": "uuid"}
    },
    "since": {
      "name": "since",
      "in": "query",
      "required": false,
      "description": "A newToken from before (empty is absent). A token of another store, client or grant, a compacted or altered one, is a 410: read again without since.",
      "schema": {"type": "string"}
    }
  },
  "responses": {
    "BadRequest": {
      "description": "A query parameter is unknown, given twice, or not a value it takes (the detail names it).",
      "content": {
        "application/problem+json": {
          "schema": {"$ref": "#/components/schemas/Problem"}
        }
      }
    },
    "Unauthorized": {
      "description": "No bearer token, or one that is unknown or revoked (not told apart).",
      "headers": {
        "WWW-Authenticate": {
          "description": "`Bearer realm=\"coffer\"`.",
          "schema": {"type": "string"}
        }
      },
      "content": {
        "application/problem+json": {
          "schema": {"$ref": "#/components/schemas/Problem"}
        }
      }
    },
    "Forbidden": {
      "description": "The client is not authorized, or its grant lacks this data type.",
      "content": {
        "application/problem+json": {
          "schema": {"$ref": "#/components/schemas/Problem"}
        }
      }
    },
    "NotFound": {
      "description": "Nothing at this address, or nothing the grant shows (one fixed body either way).",
      "content": {
        "application/problem+json": {
          "schema": {"$ref": "#/components/schemas/Problem"}
        }
      }
    },
    "Gone": {
      "description": "The history token is not valid here: read again without since.",
      "content": {
        "application/problem+json": {
          "schema": {"$ref": "#/components/schemas/Problem"}
        }
      }
    }
  }
}
"""#
}
