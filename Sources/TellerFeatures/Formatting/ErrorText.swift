import TellerCore

/// The operator's words for TellerCore's errors: one function per error
/// type, every word from the catalog. TellerCore's own `description`s are
/// English for logs, `teller status` and tests, and never reach a screen;
/// limits are worded by ``LimitText``.
public enum ErrorText {
    /// Any error a port can give.
    public static func text(_ error: TellerError) -> String {
        switch error {
        case .offline: tr("The bank's host cannot be reached.")
        case .accountNotFound(let iban): tr("No account {iban}.", ["iban": Localization.leftToRight(iban.grouped)])
        case .limit(let violation): LimitText.text(violation)
        case .rule(let error): text(error)
        case .money(let error): text(error)
        case .signIn(let error): text(error)
        case .noSuchEntry(let key): tr("No queued transaction {key}.", ["key": Localization.leftToRight("\(key)")])
        case .voidRefused(let refusal): text(refusal)
        case .reversalRefused(let refusal): text(refusal)
        case .till(let refusal): text(refusal)
        case .approval(let refusal): text(refusal)
        case .storage(let failure): text(failure)
        case .host(let message): tr("Host: {message}", ["message": Localization.verbatim(message)])
        }
    }

    /// What happened to the terminal's storage, that no money moved, and what
    /// to do; the technical detail stays in the log.
    public static func text(_ failure: StorageFailure) -> String {
        switch failure.kind {
        case .full: tr("Not saved: this terminal's storage is full. Nothing was charged. Call a technician.")
        case .readOnly: tr("Not saved: this terminal's storage has become read-only. Nothing was charged. Call a technician.")
        case .failing: tr("Not saved: this terminal's storage is failing. Nothing was charged. Call a technician.")
        case .other: tr("Not saved: this terminal's storage reported a problem. Nothing was charged. Call a technician.")
        }
    }

    /// Why an operator could not sign in or unlock. The sign-in screen words
    /// a lockout with its end time itself.
    public static func text(_ error: SignInError) -> String {
        switch error {
        case .wrongPIN(let left): trn("Wrong PIN. {count} attempt left.", "Wrong PIN. {count} attempts left.", count: left)
        case .lockedOut: tr("Too many wrong PINs. Sign-in is locked for now.")
        case .unknownOperator(let id): tr("Operator {id} is not known to the bank.", ["id": Localization.leftToRight("\(id)")])
        case .neverSeenOnline(let id):
            tr("Operator {id} has never signed in online on this terminal, so cannot sign in offline.", ["id": Localization.leftToRight("\(id)")])
        case .operatorDisabled(let id): tr("Operator {id} is disabled at the bank.", ["id": Localization.leftToRight("\(id)")])
        case .malformedPIN: tr("A PIN is 4 to 8 digits.")
        case .unavailable(let cause): tr("Sign-in is unavailable: {reason}", ["reason": text(cause)])
        }
    }

    /// Why a till action was refused.
    public static func text(_ refusal: TillRefusal) -> String {
        switch refusal {
        case .alreadyOpen: return tr("Your till is already open.")
        case .notOpen: return tr("You have no till open.")
        case .badCount(let detail): return tr("The count cannot be taken: {detail}", ["detail": Localization.verbatim(detail)])
        case .noSuchTill(let id): return tr("There is no till {id} on this terminal.", ["id": Localization.digits(String(id))])
        case .needsApproval(let overShort, let tolerance):
            let difference = MoneyFormatting.text(Money(minorUnits: abs(overShort.minorUnits), currency: overShort.currency))
            if tolerance.minorUnits == 0 {
                return overShort.minorUnits < 0
                    ? tr("The drawer is {difference} short: any difference needs a supervisor's approval.", ["difference": difference])
                    : tr("The drawer is {difference} over: any difference needs a supervisor's approval.", ["difference": difference])
            }
            return overShort.minorUnits < 0
                ? tr("The drawer is {difference} short, more than the {tolerance} allowed: a supervisor must approve.",
                     ["difference": difference, "tolerance": MoneyFormatting.text(tolerance)])
                : tr("The drawer is {difference} over, more than the {tolerance} allowed: a supervisor must approve.",
                     ["difference": difference, "tolerance": MoneyFormatting.text(tolerance)])
        }
    }

    /// Why a supervisor's approval was not taken.
    public static func text(_ refusal: ApprovalRefusal) -> String {
        switch refusal {
        case .ownTransaction: tr("Nobody can approve their own transaction. Another supervisor must sign.")
        case .notSupervisor(let id): tr("Operator {id} is not a supervisor on this terminal.", ["id": Localization.leftToRight(id.rawValue)])
        case .notOverridable(let violation): tr("No supervisor can override this limit: {limit}", ["limit": LimitText.text(violation)])
        case .signIn(let error): text(error)
        }
    }

    /// Why a payment cannot be voided.
    public static func text(_ refusal: VoidRefusal) -> String {
        switch refusal {
        case .sending: tr("This payment is being sent to the bank and can no longer be voided.")
        case .stillConnecting: tr("The terminal is still trying to reach the bank with this payment. Nothing has been sent yet: try Void again in a moment.")
        case .sentBefore:
            tr("This payment has already been sent to the bank once and may have been posted, so it can no longer be voided. Wait for the bank's answer.")
        case .alreadySent(let reference):
            tr("The bank has already posted this payment ({reference}). It cannot be voided; a reversal can undo it.",
               ["reference": Localization.leftToRight(reference)])
        case .rejected: tr("The bank rejected this payment; no money moved, so there is nothing to void.")
        case .needsReview: tr("This payment needs review and cannot be voided until it is settled with the bank.")
        case .alreadyVoided: tr("This payment has already been voided.")
        }
    }

    /// Why a payment cannot be reversed.
    public static func text(_ refusal: ReversalRefusal) -> String {
        switch refusal {
        case .notPosted(.queued): tr("This payment has not been sent yet: void it instead.")
        case .notPosted: tr("Only a payment the bank has posted can be reversed.")
        case .alreadyReversed(let key):
            tr("This payment has already been reversed (receipt {receipt}).", ["receipt": Localization.leftToRight(key.receiptNumber)])
        case .isReversal: tr("A reversal cannot itself be reversed; enter a new payment instead.")
        }
    }

    /// Why a transaction's fields do not make sense together.
    public static func text(_ error: TransactionRuleError) -> String {
        switch error {
        case .amountNotPositive: tr("The amount must be more than zero.")
        case .missingRecipient: tr("A transfer needs a recipient IBAN.")
        case .recipientIsSameAccount: tr("The recipient must be a different account.")
        case .unexpectedRecipient(.deposit): tr("A deposit has no recipient.")
        case .unexpectedRecipient(.withdrawal): tr("A withdrawal has no recipient.")
        // Only a transfer has a recipient, so the rule never refuses one.
        case .unexpectedRecipient(.transfer): tr("A transfer needs a recipient IBAN.")
        case .approvedByOperator: tr("Nobody can approve their own transaction. Another supervisor must sign.")
        }
    }

    /// Why a money operation or a typed amount was refused.
    public static func text(_ error: MoneyError) -> String {
        switch error {
        case .overflow: tr("The amount is too large to represent.")
        case .currencyMismatch(let a, let b): tr("Cannot combine {a} with {b}.", ["a": Localization.leftToRight(a.code), "b": Localization.leftToRight(b.code)])
        case .emptyAmount: tr("Enter an amount.")
        case .tooManyDigits(let maximum): tr("An amount has at most {maximum} digits.", ["maximum": Localization.digits(String(maximum))])
        case .notADigit(let c): tr("'{character}' is not a digit.", ["character": Localization.verbatim(String(c))])
        case .unknownCurrency(let code): tr("Unknown currency '{code}'.", ["code": Localization.leftToRight(code)])
        }
    }

    /// Why text is not a valid IBAN.
    public static func text(_ error: IBANError) -> String {
        switch error {
        case .empty: tr("Enter an IBAN.")
        case .invalidCharacter(let c): tr("'{character}' cannot appear in an IBAN.", ["character": Localization.leftToRight(String(c))])
        case .tooShort: tr("An IBAN starts with a country code and two check digits.")
        case .invalidCountryCode(let code): tr("'{code}' is not a country code.", ["code": Localization.leftToRight(code)])
        case .unknownCountry(let code): tr("IBANs from '{code}' are not supported.", ["code": Localization.leftToRight(code)])
        case .wrongLength(let country, let expected, let actual):
            tr("A {country} IBAN has {expected} characters; this one has {actual}.",
               ["country": Localization.leftToRight(country), "expected": Localization.digits(String(expected)),
                "actual": Localization.digits(String(actual))])
        case .badCheckDigits: tr("The check digits do not match; check for a typing error.")
        }
    }
}
