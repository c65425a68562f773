//! Word lists of the generated data, and the hostile-but-valid strings planted in it on
//! purpose so the console's rendering is tested against markup, quotes, emoji, right-to-left
//! text and words too long to wrap.

pub const SCRIPT_TAG: &str = "<script>alert(1)</script>";
pub const IMG_ONERROR: &str = "<img src=x onerror=alert(1)>";
pub const QUOTES: &str = r#"The "Best" Client's Gift"#;
pub const EMOJI: &str = "Coffee on us ☕🎁";
pub const RTL: &str = "هدية شكر للعملاء";
pub const RTL_HEBREW: &str = "מתנת תודה";

/// A single 200-character word: no break opportunity anywhere.
pub fn long_word() -> String {
    let base = "Supercalifragilisticexpialidocious";
    base.chars().cycle().take(200).collect()
}

pub const FIRST_NAMES: &[&str] = &[
    "Olivia", "Liam", "Amara", "Noah", "Mei", "Mateo", "Priya", "Lucas", "Fatima", "Ethan",
    "Sofia", "Kenji", "Chloé", "Omar", "Ingrid", "Diego", "Aisha", "Jonas", "Zoë", "Rahul",
    "Hannah", "Tomás", "Yuki", "Grace", "Emeka", "Lena", "Carlos", "Nadia", "Felix", "Ava",
];

pub const LAST_NAMES: &[&str] = &[
    "García",
    "Smith",
    "Okafor",
    "Chen",
    "Müller",
    "Patel",
    "O'Brien",
    "Nguyen",
    "Johansson",
    "Rossi",
    "Kowalski",
    "Haddad",
    "Tanaka",
    "Dubois",
    "Fernández",
    "Kim",
    "Novak",
    "Singh",
    "Murphy",
    "Silva",
    "Cohen",
    "Ivanova",
    "Mensah",
    "Lindqvist",
    "Costa",
    "Walker",
];

pub const COMPANIES: &[&str] = &[
    "Acme Corporation",
    "Globex",
    "Initech",
    "Umbrella Analytics",
    "Stark & Wayne LLP",
    "Northwind Traders",
    "Contoso",
    "Fabrikam",
    "Tailspin Toys",
    "Wide World Importers",
    "Müller & Söhne GmbH",
    "Société Générale des Idées",
    "<b>Bold</b> Ventures",
    "O'Reilly \"Quoted\" Partners",
    "شركة الأفق",
    "Blue Sky 🚀 Labs",
];

pub const GROUP_NAMES: &[&str] = &[
    "Sales",
    "Marketing",
    "Customer Success",
    "Engineering",
    "People & Culture",
    "Finance",
    "Partnerships",
    "Executive Office",
    "Field Events \"EMEA\" 🎉",
    "<b>Ops</b> & Logistics",
];

pub const TOUCH_NAMES: &[&str] = &[
    "Welcome Aboard Kit",
    "Q3 Pipeline Thank-you",
    "Holiday Wine 2025",
    "Renewal Celebration",
    "Webinar Attendee Coffee",
    "Executive Dinner Follow-up",
    "New Customer Onboarding",
    "Conference Booth Visitors",
    "Birthday eGift",
    "Work Anniversary",
    "Referral Reward",
    "Demo Booked Thanks",
    "Closed-Won Champagne",
    "Handwritten Thank-you",
    "Lunch on Us",
    "Charity Donation Match",
    "Spring Snack Box",
    "Customer Advisory Board",
    "Partner Summit Swag",
    "Year-End Appreciation",
];

pub const TOUCH_BLURBS: &[&str] = &[
    "A thank-you for taking the time to meet with us.",
    "Sent after a first meeting to keep the conversation warm.",
    "Celebrates a signed renewal with the whole buying team.",
    "A small treat for everyone who joined the session.",
    "Our way of saying welcome to new customers.",
    "Recipients choose their own gift from a curated list.",
];

/// (group name, [(category id, category name)])
pub const CATEGORY_GROUPS: &[(&str, &[(&str, &str)])] = &[
    (
        "Food & Drink",
        &[
            ("101", "Coffee & Tea"),
            ("102", "Snacks & Sweets"),
            ("103", "Wine & Spirits"),
            ("104", "Gourmet Baskets"),
        ],
    ),
    (
        "Home & Living",
        &[("201", "Kitchen"), ("202", "Decor"), ("203", "Plants")],
    ),
    (
        "Tech",
        &[("301", "Audio"), ("302", "Gadgets"), ("303", "Desk Setup")],
    ),
    ("Wellness", &[("401", "Self-care"), ("402", "Fitness")]),
    (
        "Apparel & Swag",
        &[("501", "Branded Apparel"), ("502", "Bags")],
    ),
    (
        "Experiences & Giving",
        &[("601", "Experiences"), ("602", "Charity")],
    ),
];

/// Product nouns per category id.
pub fn product_nouns(category_id: &str) -> &'static [&'static str] {
    match category_id {
        "101" => &["Coffee Sampler", "Matcha Set", "Cold Brew Kit", "Tea Chest"],
        "102" => &["Chocolate Box", "Cookie Tin", "Popcorn Trio", "Macaron Set"],
        "103" => &["Cabernet Duo", "Prosecco", "Craft Gin", "Rosé Collection"],
        "104" => &["Gourmet Basket", "Cheese Board Set", "Picnic Hamper"],
        "201" => &[
            "Chef's Knife",
            "Cast Iron Skillet",
            "Olive Oil Trio",
            "Spice Rack",
        ],
        "202" => &[
            "Scented Candle",
            "Throw Blanket",
            "Ceramic Vase",
            "Photo Frame",
        ],
        "203" => &["Succulent Trio", "Bonsai Kit", "Herb Garden"],
        "301" => &[
            "Wireless Earbuds",
            "Bluetooth Speaker",
            "Noise-Cancelling Headphones",
        ],
        "302" => &["Power Bank", "Smart Tracker", "Phone Stand", "Charging Pad"],
        "303" => &[
            "Desk Lamp",
            "Notebook Set",
            "Mechanical Pencil",
            "Desk Organizer",
        ],
        "401" => &["Spa Kit", "Bath Salts", "Essential Oil Set", "Sleep Mask"],
        "402" => &["Yoga Mat", "Water Bottle", "Resistance Bands"],
        "501" => &["Hoodie", "Quarter-Zip", "Cap", "Socks Bundle"],
        "502" => &["Backpack", "Tote Bag", "Weekender Duffel"],
        "601" => &["Cooking Class", "Wine Tasting", "Hot Air Balloon Ride"],
        _ => &["Charity Donation", "Tree Planting", "Meal Donation"],
    }
}

pub const PRODUCT_ADJECTIVES: &[&str] = &[
    "Artisan",
    "Classic",
    "Deluxe",
    "Organic",
    "Signature",
    "Premium",
    "Eco",
    "Mini",
    "Limited Edition",
    "Everyday",
];

pub const PRODUCT_BLURBS: &[&str] = &[
    "A crowd-pleaser that ships in recyclable packaging.",
    "Hand-picked by our gifting team and wrapped with a note card.",
    "Made by a small independent maker.",
    "Arrives ready to enjoy; no assembly required.",
    "A thoughtful pick for clients, partners and colleagues.",
];

pub const COUNTRIES: &[&str] = &["US", "CA", "GB", "DE", "FR", "AU", "NL", "IE", "MX", "IN"];
