#!/bin/sh
# Prints the uinput scenario of one deposit to the first demo account, for
# the guest scripts that enter many (power-cut.sh, crash-states.sh): the
# amount typed on the keypad as DIGITS (cents included: 307 is 3.07 EUR).
#   deposit-scenario.sh DIGITS done     ... then back home (receipt.done)
#   deposit-scenario.sh DIGITS queued   ... ending on the receipt, which must say Queued
digits=$1
case "$2" in
done | queued) ;;
*) echo "usage: deposit-scenario.sh DIGITS done|queued" >&2; exit 2 ;;
esac
echo "wait-for home.find-account 30"
echo "tap home.find-account"
echo 'type DE54500105170426397158\n'
echo "wait-for account.deposit 10"
echo "tap account.deposit"
echo "wait-for amount.keys.1"
for digit in $(echo "$digits" | sed 's/./& /g'); do echo "tap amount.keys.$digit"; done
echo "tap amount.review"
echo "wait-for review.confirm 10"
echo "tap review.confirm"
echo "wait-for receipt.done 10"
if [ "$2" = queued ]; then
    echo "expect-text Queued"
else
    echo "tap receipt.done"
fi
