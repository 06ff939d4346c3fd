extension Theme {
    /// The steps of space between and around widgets, in dp. They are the
    /// same in every theme, as touch sizes are: a screen names a step, never
    /// a number, so the screens keep one rhythm.
    public enum Spacing {
        /// Lines that read as one: a header's lines, the open limits.
        public static let hairline: Double = 2
        /// A caption over its field; the status bar's rows.
        public static let xxSmall: Double = 4
        /// Rows of a card, tiles of a grid.
        public static let xSmall: Double = 6
        /// Between the parts of a screen.
        public static let small: Double = 8
        /// Between the lines of a form; the status bar's items.
        public static let compact: Double = 10
        /// Between controls; a screen's edge.
        public static let medium: Double = 12
        /// The sides of the account's header card.
        public static let mediumLarge: Double = 14
        /// Between columns; the sides of a card.
        public static let large: Double = 16
        /// The sides of a screen with a keypad.
        public static let xLarge: Double = 20
        /// Between a form and its keypad; the sides of the home screen.
        public static let xxLarge: Double = 24
    }

    /// Fixed sizes of controls and cards, in dp.
    public enum Size {
        /// The one main action standing alone: Find account, Confirm.
        public static let heroButtonHeight: Double = 120
        /// Confirm's width beside the details it confirms.
        public static let heroButtonWidth: Double = 240
        /// A row or column of equal actions: Deposit, Withdraw, Transfer; the queue and the till.
        public static let tallButtonHeight: Double = 72
        /// A row of buttons at the foot of a screen: Lock and Sign out, Done and Print.
        public static let buttonRowHeight: Double = 64
        /// A column of actions beside a list, wide enough for their words at the largest text.
        public static let actionColumnWidth: Double = 220
        /// The corners of cards and headers.
        public static let cornerRadius: Double = 8
    }
}
