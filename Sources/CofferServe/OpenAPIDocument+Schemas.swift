extension OpenAPIDocument {
    /// `components.schemas`: the models as the CLI's JSON writes them, the change batches, the problem body.
    static let schemas = #"""
{
  "Problem": {
    "type": "object",
    "description": "RFC 9457 problem details.",
    "required": ["detail", "status", "title", "type"],
    "properties": {
      "detail": {"type": "string"},
      "status": {"type": "integer", "minimum": 400, "maximum": 599},
      "title": {"type": "string"},
      "type": {"type": "string", "format": "uri-reference", "examples": ["about:blank"]}
    }
  },
  "UUIDText": {
    "type": "string",
    "format": "uuid",
    "description": "A UUID, as Swift's uuidString writes it (uppercase)."
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
    "required": ["amount", "currencyCode"],
    "properties": {
      "amount": {"$ref": "#/components/schemas/Decimal"},
      "currencyCode": {"type": "string", "description": "ISO 4217, e.g. USD."}
    },
    "examples": [
      {"amount": "12.50", "currencyCode": "USD"}
    ]
  },
  "CreditDebitIndicator": {"type": "string", "enum": ["credit", "debit"]},
  "TransactionStatus": {"type": "string", "enum": ["authorized", "booked", "memo", "pending", "rejected"]},
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
  "AuthorizationStatus": {"type": "string", "enum": ["authorized", "denied", "notDetermined"]},
  "DataType": {"type": "string", "enum": ["accounts", "accountBalances", "transactions", "orders"]},
  "Account": {
    "description": "An asset (bank, savings) or a liability (credit card, loan) account, flat, told apart by kind.",
    "oneOf": [
      {"$ref": "#/components/schemas/AssetAccount"},
      {"$ref": "#/components/schemas/LiabilityAccount"}
    ],
    "discriminator": {
      "propertyName": "kind",
      "mapping": {"asset": "#/components/schemas/AssetAccount", "liability": "#/components/schemas/LiabilityAccount"}
    }
  },
  "AssetAccount": {
    "type": "object",
    "required": ["currencyCode", "displayName", "id", "institutionName", "kind"],
    "properties": {
      "kind": {"type": "string", "const": "asset"},
      "id": {"$ref": "#/components/schemas/UUIDText"},
      "displayName": {"type": "string"},
      "accountDescription": {"type": "string"},
      "institutionName": {"type": "string"},
      "currencyCode": {"type": "string"},
      "openingDate": {"$ref": "#/components/schemas/DateText"}
    }
  },
  "LiabilityAccount": {
    "type": "object",
    "required": ["creditInformation", "currencyCode", "displayName", "id", "institutionName", "kind"],
    "properties": {
      "kind": {"type": "string", "const": "liability"},
      "id": {"$ref": "#/components/schemas/UUIDText"},
      "displayName": {"type": "string"},
      "accountDescription": {"type": "string"},
      "institutionName": {"type": "string"},
      "currencyCode": {"type": "string"},
      "openingDate": {"$ref": "#/components/schemas/DateText"},
      "creditInformation": {"$ref": "#/components/schemas/AccountCreditInformation"}
    }
  },
  "AccountCreditInformation": {
    "type": "object",
    "description": "What the statements gave; every key is optional.",
    "properties": {
      "creditLimit": {"$ref": "#/components/schemas/CurrencyAmount"},
      "minimumNextPaymentAmount": {"$ref": "#/components/schemas/CurrencyAmount"},
      "nextPaymentDueDate": {"$ref": "#/components/schemas/DateText"},
      "overduePaymentAmount": {"$ref": "#/components/schemas/CurrencyAmount"}
    }
  },
  "AccountBalance": {
    "type": "object",
    "required": ["accountID", "currentBalance", "id"],
    "properties": {
      "id": {"$ref": "#/components/schemas/UUIDText"},
      "accountID": {"$ref": "#/components/schemas/UUIDText"},
      "currentBalance": {"$ref": "#/components/schemas/CurrentBalance"}
    }
  },
  "CurrentBalance": {
    "type": "object",
    "description": "The available balance, the booked balance, or both.",
    "properties": {
      "available": {"$ref": "#/components/schemas/Balance"},
      "booked": {"$ref": "#/components/schemas/Balance"}
    },
    "anyOf": [
      {"required": ["available"]},
      {"required": ["booked"]}
    ]
  },
  "Balance": {
    "type": "object",
    "required": ["amount", "asOfDate", "creditDebitIndicator"],
    "properties": {
      "amount": {"$ref": "#/components/schemas/CurrencyAmount"},
      "asOfDate": {"$ref": "#/components/schemas/DateText"},
      "creditDebitIndicator": {"$ref": "#/components/schemas/CreditDebitIndicator"}
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
      "id": {"$ref": "#/components/schemas/UUIDText"},
      "accountID": {"$ref": "#/components/schemas/UUIDText"},
      "transactionAmount": {"$ref": "#/components/schemas/CurrencyAmount"},
      "foreignCurrencyAmount": {"$ref": "#/components/schemas/CurrencyAmount"},
      "foreignCurrencyExchangeRate": {"$ref": "#/components/schemas/Decimal"},
      "creditDebitIndicator": {"$ref": "#/components/schemas/CreditDebitIndicator"},
      "transactionDescription": {"type": "string"},
      "originalTransactionDescription": {"type": "string"},
      "merchantCategoryCode": {"type": "integer", "minimum": 0, "maximum": 9999, "description": "ISO 18245, e.g. 5411."},
      "merchantName": {"type": "string"},
      "transactionType": {"$ref": "#/components/schemas/TransactionType"},
      "status": {"$ref": "#/components/schemas/TransactionStatus"},
      "transactionDate": {"$ref": "#/components/schemas/DateText"},
      "postedDate": {"$ref": "#/components/schemas/DateText"},
      "timeZoneOffset": {
        "type": "integer",
        "description": "Seconds east of UTC of the time the statement gave; absent when it gave only a day."
      },
      "orderID": {"$ref": "#/components/schemas/UUIDText"}
    }
  },
  "AccountList": {
    "type": "object",
    "required": ["accounts"],
    "properties": {
      "accounts": {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Account"}
      }
    }
  },
  "BalanceList": {
    "type": "object",
    "required": ["balances"],
    "properties": {
      "balances": {
        "type": "array",
        "items": {"$ref": "#/components/schemas/AccountBalance"}
      }
    }
  },
  "TransactionPage": {
    "type": "object",
    "required": ["transactions"],
    "properties": {
      "nextCursor": {"type": "string", "description": "Absent on the last page."},
      "transactions": {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Transaction"}
      }
    }
  },
  "Authorization": {
    "type": "object",
    "description": "The client's name and status; when authorized, its grant: accounts (each with its earliest day, when it has one) and data types.",
    "required": ["client", "status"],
    "properties": {
      "accounts": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["accountID"],
          "properties": {
            "accountID": {"$ref": "#/components/schemas/UUIDText"},
            "earliestDate": {"type": "string", "format": "date"}
          }
        }
      },
      "client": {"type": "string"},
      "dataTypes": {
        "type": "array",
        "items": {"$ref": "#/components/schemas/DataType"}
      },
      "status": {"$ref": "#/components/schemas/AuthorizationStatus"}
    }
  },
  "TransactionChanges": {
    "description": "A batch of the transactions stream.",
    "allOf": [
      {"$ref": "#/components/schemas/ChangesCommon"},
      {
        "type": "object",
        "properties": {
          "inserted": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Transaction"},
            "description": "Records new since the token (from none: every current record)."
          },
          "updated": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Transaction"},
            "description": "Records as they are now."
          }
        }
      }
    ]
  },
  "AccountChanges": {
    "description": "A batch of the accounts stream.",
    "allOf": [
      {"$ref": "#/components/schemas/ChangesCommon"},
      {
        "type": "object",
        "properties": {
          "inserted": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Account"},
            "description": "Records new since the token (from none: every current record)."
          },
          "updated": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Account"},
            "description": "Records as they are now."
          }
        }
      }
    ]
  },
  "AccountBalanceChanges": {
    "description": "A batch of the accountBalances stream.",
    "allOf": [
      {"$ref": "#/components/schemas/ChangesCommon"},
      {
        "type": "object",
        "properties": {
          "inserted": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/AccountBalance"},
            "description": "Records new since the token (from none: every current record)."
          },
          "updated": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/AccountBalance"},
            "description": "Records as they are now."
          }
        }
      }
    ]
  },
  "SaveOrderResult": {
    "type": "object",
    "required": ["orderID", "result", "signatureVerified"],
    "properties": {
      "orderID": {
        "type": ["string", "null"],
        "format": "uuid",
        "description": "The stored order's id (null when nothing was stored)."
      },
      "result": {"type": "string", "enum": ["added", "cancelled", "newerExisting"]},
      "signatureVerified": {
        "type": "boolean",
        "description": "Whether the signature was verified against the server's trust anchors (false: only the manifest was)."
      }
    }
  },
  "ChangesCommon": {
    "type": "object",
    "description": "What every batch of a history stream holds; the kinds differ only in the model of inserted and updated.",
    "required": ["deleted", "inserted", "newToken", "updated"],
    "properties": {
      "deleted": {
        "type": "array",
        "items": {"$ref": "#/components/schemas/UUIDText"},
        "description": "Ids of records removed."
      },
      "hasMore": {
        "type": "boolean",
        "description": "More changes follow newToken already (GET /v1/history/{kind} only; absent in stream events)."
      },
      "newToken": {"type": "string", "description": "Pass as since to resume after this batch."}
    }
  }
}
"""#
}
