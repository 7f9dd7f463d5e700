import GRDB

/// Migration v18 (issue 18): Wallet orders, FinanceKit's `saveOrder` and `containsOrder`. Append-only like every
/// migration: a change is a new one (docs/schema.md).
extension Schema {
    static func registerWalletOrdersMigration(_ migrator: inout DatabaseMigrator) {
        // One row per order and saver: `client_id` is the client that saved it, NULL for the store's owner; a newer
        // version of the same order from the same saver replaces the row and keeps its `id`. `updated_at` and
        // `created_at` are order.json's `updatedAt` and `createdAt` (milliseconds since 1970): `containsOrder` compares
        // `updated_at`. `order_json` is the order as Coffer models it (`WalletOrder`, JSON); `archive` the signed archive
        // as it was received, `archive_sha256` its hash, `verification` what of it was checked (`OrderVerification`,
        // JSON). `transaction_id` is the transaction that paid for it, NULL until one is found; no foreign key: a
        // transaction deleted later leaves the link dangling, and reads ignore it. Orders are not journaled for undo
        // and not in the change log: they are not imports, and FinanceKit has no order history.
        migrator.registerMigration("v18-wallet-orders") { db in
            try db.execute(sql: """
                CREATE TABLE wallet_order (
                    id BLOB PRIMARY KEY NOT NULL,
                    order_type_identifier TEXT NOT NULL,
                    order_identifier TEXT NOT NULL,
                    client_id BLOB,
                    updated_at INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    merchant_name TEXT NOT NULL,
                    status TEXT NOT NULL,
                    total_amount TEXT,
                    total_scaled INTEGER,
                    currency_code TEXT,
                    order_json BLOB NOT NULL,
                    archive BLOB NOT NULL,
                    archive_sha256 TEXT NOT NULL,
                    verification TEXT NOT NULL,
                    transaction_id BLOB,
                    saved_at INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX wallet_order_identity ON wallet_order(order_type_identifier, order_identifier, ifnull(client_id, x''));
                CREATE INDEX wallet_order_transaction ON wallet_order(transaction_id) WHERE transaction_id IS NOT NULL;
                """)
        }
    }
}
