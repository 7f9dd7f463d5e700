/// The commented starting files `coffer init` writes into the configuration folder. They hold examples only: the
/// shipped profiles, merchant rules and institutions come with Coffer itself, and these files add to them.
enum ExampleFiles {
    /// `profiles/example-bank.yaml.example`: a CSV profile, read once renamed to `.yaml` (only `*.yaml` and `*.yml`
    /// files are profiles, so the example does nothing until then).
    static let csvProfile = """
        # An example CSV profile: how Coffer reads one bank's CSV export. Copy this file to a name ending in
        # .yaml (say profiles/mybank.yaml), change what differs for your bank, and check it without a store:
        #   coffer parse --profile ~/.config/coffer/profiles/mybank.yaml ~/Downloads/export.csv
        # `coffer profile draft export.csv -o ~/.config/coffer/profiles/mybank.yaml` writes a first draft from an
        # export for you; docs/profiles.md lists every key.
        #
        # A file like this one is read by it:
        #   Booking date,Value date,Payee,Reference,Amount,Currency,Balance
        #   14.03.2026,14.03.2026,CAFE EXAMPLE,Card payment 1234,-4.50,EUR,1250.10

        id: example-bank
        institution: Example Bank
        # How a file is recognised: every one of these header names in one row (case and spacing ignored)
        # and, optionally, a file-name pattern.
        match:
          header: [Booking date, Value date, Payee, Reference, Amount, Currency, Balance]
          # file_name: "ExampleBank_*.csv"
        encoding: utf-8            # or cp1252, latin-1, any name iconv knows
        delimiter: ","             # , ; tab | or auto
        decimal_mark: "."          # "1.234,56" is decimal_mark: "," with thousands_separator: "."
        date_format: dd.MM.yyyy
        sign: credit_positive      # money in is positive; a card export listing purchases as positive: debit_positive
        columns:
          date: Booking date
          posted_date: Value date
          merchant: Payee
          description: "{Payee} {Reference}"   # a template joining columns
          amount: Amount
          currency: Currency
          balance: Balance                     # a running balance: each row is checked against the previous one
        account:
          # The account every file of this profile lands on. Put your own number here (only its last digits are
          # ever shown), or take it from the file: number_from: {file_name: "^ExampleBank_(?<number>\\\\d+)_"}
          number: "DE00EXAMPLE0000000000"
          institution: Example Bank
          kind: asset                # asset (current, savings) or liability (a credit card)
          currency: EUR
          display_name: Example Bank current account
          type: CHECKING

        """

    /// `merchants.local.yaml`: the person's own merchant rules, beside the shipped ones.
    static let merchantRules = """
        # Your own merchant rules: text in a transaction → a merchant name, a category code (MCC) and a type.
        # They add to the rules built into Coffer and are tried first; a rule here with the id of a built-in one
        # replaces it (an id is 'id:', else the name in lower case with '-' between words: starbucks,
        # trader-joes). To turn a built-in rule or profile off, list it in disable.yaml beside this file:
        # disable: [starbucks, profile:amex]. `coffer config show` lists every rule with the file it came from.
        #
        # Each rule:
        #   - name: Corner Bakery         # the merchant's name, also the display text (required)
        #     mcc: 5462                   # ISO 18245 merchant category code, four digits (optional)
        #     contains: [corner bakery]   # word sequences anywhere in the text (a text or a list)
        #     prefix: [cbk]               # word sequences the text starts with (a text or a list)
        #     type: pointOfSale           # a FinanceKit transaction type (optional)
        #     amount: {min: 1, max: 50}   # only these amounts (positive; or one exact amount) (optional)
        #     direction: debit            # only debits (money out) or credits (money in) (optional)
        #     account: [Checking]         # only these accounts, by id or name as `coffer accounts` shows (optional)
        # A rule needs a name and at least one 'contains' or 'prefix'. Your rules apply to any text (a payroll
        # credit too); `coffer config rules --unused` lists those that match nothing stored, and why. Matching ignores case, accents and
        # punctuation, and goes by whole words: 'shell' does not match SHELLFISH.
        #
        # For example (remove the '# ' to use them):
        # merchants:
        #   - {name: Corner Bakery, mcc: 5462, contains: [corner bakery, cnr bakery]}
        #   - {name: Employer payroll, type: directDeposit, contains: [globex corp dir dep]}
        #
        # `coffer parse FILE` shows what the rules make of a statement, without a store.
        version: 1
        merchants: []

        """

    /// `accounts.yaml`: identities that should land on an account Coffer already has.
    static let accounts = """
        # Your accounts' other identities: statements that name one of your accounts another way land on it.
        #
        # Coffer already keeps one account per real account when a statement's institution and the last four
        # digits agree with a stored account's. Write an entry here when that is not enough: an export whose
        # institution name Coffer does not know, a card whose export shows other digits. Each entry names a
        # stored account by its id, as `coffer accounts` prints it, and lists the identities that are that one:
        #
        # accounts:
        #   - id: 0F8E5C43-2D7B-8A1C-9E44-5B6A7C8D9E0F
        #     identities:
        #       - {institution: Example Bank, last_digits: "1004"}
        #       - {institution: Lakeside Credit Union, number: "000123456789"}
        #
        # To merge two accounts already in the store, see `coffer accounts link`.
        version: 1
        accounts: []

        """
}
