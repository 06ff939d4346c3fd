/// What retention may never remove, whoever sets `retention_days`: the
/// configuration refuses fewer days, and the store never prunes sooner.
public enum RetentionPolicy {
    /// The fewest days retention may keep: the bank keeps idempotency keys
    /// 30 days (docs/host-api.md §7), and a row is never removed before a
    /// replay of it could still arrive.
    public static let minimumDays = 30
}
