import sqlite3, time, random, shutil
def run(db, sql, argsf, n=3000):
    c = sqlite3.connect(db)
    random.seed(1)
    rows=0
    t=time.perf_counter()
    for _ in range(n):
        rows += len(c.execute(sql, argsf()).fetchall())
    return (time.perf_counter()-t)/n*1e6, rows/n
acct = lambda: 'acct%d' % random.randrange(10)
def rangeargs():
    d = random.randrange(19730, 20700); a=acct()
    return (a, d*86400000-14*3600000, (d+2)*86400000+14*3600000, d, d+1)
def dayargs():
    d = random.randrange(19730, 20700); a=acct()
    return (a, d, d+1)
A="SELECT id, amount, description, transaction_date, utc_offset FROM txn WHERE account_id=? AND transaction_date>=? AND transaction_date<? AND local_day BETWEEN ? AND ? ORDER BY transaction_date"
B="SELECT id, amount, description, transaction_date, utc_offset FROM txn WHERE account_id=? AND local_day BETWEEN ? AND ? ORDER BY local_day"
print("range+filter (no new index)", run('a.db', A, rangeargs))
shutil.copy('a.db','b.db')
c=sqlite3.connect('b.db'); c.execute("CREATE INDEX txn_account_local_day ON txn(account_id, local_day)"); c.execute("ANALYZE"); c.commit()
print("plan B", c.execute("EXPLAIN QUERY PLAN "+B, dayargs()).fetchall())
print("plan A", c.execute("EXPLAIN QUERY PLAN "+A, rangeargs()).fetchall())
print("(account, local_day) index", run('b.db', B, dayargs))
print("range+filter (no new index) again", run('a.db', A, rangeargs))
print("(account, local_day) index again", run('b.db', B, dayargs))
# insert cost
for name, db in [('no index','a.db'),('with index','b.db')]:
    c=sqlite3.connect(db); c.execute("PRAGMA synchronous=OFF")
    t=time.perf_counter()
    c.execute("BEGIN")
    for i in range(100000):
        c.execute("INSERT INTO txn(id, account_id, amount, amount_scaled, currency_code, indicator, description, original_description, status, type, transaction_date, external_id, created_seq, utc_offset, local_day) VALUES (randomblob(16), ?, '1', 1000000, 'USD', 1, 'X', 'X', 1, 5, ?, NULL, 0, -18000, ?)",
                  ('acct%d' % (i%10), 1800000000000 + i*60000, (1800000000000 + i*60000)//86400000))
    c.execute("COMMIT")
    print("insert 100k", name, (time.perf_counter()-t)/100000*1e6, "us/row")
