//! How Tabletop Simulator places what a save describes, as the public evidence in
//! docs/tabletop-simulator.md ("The conventions, and their evidence") reads it: one reading, used
//! by the Lua stand-in (`tests/tts_lua.rs`) and the picture of the table (`tests/tts_table.rs`),
//! so that a script or an export that breaks a convention fails in both.
//!
//! Three frames:
//! - the **world**: x, y (up), z; Unity's, left-handed;
//! - an object's **local** frame (`positionToWorld`, `positionToLocal`, snap points): the
//!   Transform's scale, then its rotation (Unity's Euler angles: z, then x, then y), then its
//!   position; a flat object's face is its local +y; a face-up image has its top toward local
//!   −z and its *left* toward local +x;
//! - the **button** frame (`createButton`'s `position`): the local frame with x mirrored, so
//!   that +x is the image's right and −z its top, as a player reading the image sees them.
//!   Button `width`, `height` and `font_size` are 500 to a local unit, times the button's
//!   `scale`.

use serde_json::Value;

pub type Vec3 = [f64; 3];

/// Button sizes: this many to one local unit.
pub const BUTTON_UNITS: f64 = 500.0;

/// An object's place, turn and size, from its save's `Transform`.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    pub position: Vec3,
    pub rotation: Vec3,
    pub scale: Vec3,
}

impl Transform {
    pub fn of(object: &Value) -> Transform {
        let at = &object["Transform"];
        let get = |k: &str, default: f64| at[k].as_f64().unwrap_or(default);
        Transform {
            position: [get("posX", 0.0), get("posY", 0.0), get("posZ", 0.0)],
            rotation: [get("rotX", 0.0), get("rotY", 0.0), get("rotZ", 0.0)],
            scale: [get("scaleX", 1.0), get("scaleY", 1.0), get("scaleZ", 1.0)],
        }
    }

    /// A local point (scaled by the object) in the world.
    pub fn to_world(self, local: Vec3) -> Vec3 {
        let scaled = [
            local[0] * self.scale[0],
            local[1] * self.scale[1],
            local[2] * self.scale[2],
        ];
        let turned = rotate(self.rotation, scaled);
        [
            turned[0] + self.position[0],
            turned[1] + self.position[1],
            turned[2] + self.position[2],
        ]
    }

    /// Whether the object's face (local +y) looks down at the table.
    pub fn face_down(&self) -> bool {
        rotate(self.rotation, [0.0, 1.0, 0.0])[1] < 0.0
    }
}

/// Unity's Euler rotation (degrees): about z, then x, then y.
pub fn rotate([rx, ry, rz]: Vec3, [x, y, z]: Vec3) -> Vec3 {
    let (sz, cz) = rz.to_radians().sin_cos();
    let (x, y) = (x * cz - y * sz, x * sz + y * cz);
    let (sx, cx) = rx.to_radians().sin_cos();
    let (y, z) = (y * cx - z * sx, y * sx + z * cx);
    let (sy, cy) = ry.to_radians().sin_cos();
    [x * cy + z * sy, y, -x * sy + z * cy]
}

/// A button position in the object's local frame.
pub fn button_to_local([x, y, z]: Vec3) -> Vec3 {
    [-x, y, z]
}

/// The button-frame point over the image's point at (`u`, `v`) (fractions from its left and
/// its top), on a face of half extents `half` (x, z).
pub fn image_to_button((u, v): (f64, f64), half: (f64, f64)) -> (f64, f64) {
    ((u - 0.5) * 2.0 * half.0, (v - 0.5) * 2.0 * half.1)
}

/// An object's half extents before scale (x, y, z): a tile or a board is two units deep (its
/// image's height) and as wide as its image's aspect makes it; a card 2.2 by 3.1 at scale 1
/// (docs/tabletop-simulator.md); a hand zone its scale; other objects a unit. `aspect` gives
/// an image's width over height by its URL.
pub fn half_extent(object: &Value, aspect: &dyn Fn(&str) -> Option<f64>) -> Vec3 {
    match object["Name"].as_str().unwrap_or_default() {
        "Custom_Tile" | "Custom_Board" | "Custom_Token" => {
            let a = object["CustomImage"]["ImageURL"]
                .as_str()
                .and_then(aspect)
                .unwrap_or(1.0);
            let thickness = object["CustomImage"]["CustomTile"]["Thickness"]
                .as_f64()
                .unwrap_or(0.1);
            [a, thickness / 2.0, 1.0]
        }
        "Card" | "CardCustom" | "DeckCustom" | "Deck" => [1.1, 0.05, 1.55],
        "HandTrigger" => [0.5, 0.5, 0.5],
        _ => [0.5, 0.5, 0.5],
    }
}

/// Where a seat sits and looks: from its hand zone, the table's +z of the zone pointing at the
/// table's centre. `right` and `forward` as that player sees the table.
#[derive(Debug, Clone)]
pub struct Seat {
    pub colour: String,
    pub right: Vec3,
    pub forward: Vec3,
}

impl Seat {
    pub fn of_hand_zone(zone: &Value) -> Seat {
        let t = Transform::of(zone);
        Seat {
            colour: zone["FogColor"].as_str().unwrap_or_default().to_string(),
            right: rotate(t.rotation, [1.0, 0.0, 0.0]),
            forward: rotate(t.rotation, [0.0, 0.0, 1.0]),
        }
    }

    /// An object lies the right way up for this seat when its image's top points away from it.
    pub fn reads_upright(&self, t: &Transform) -> bool {
        let top = rotate(t.rotation, [0.0, 0.0, -1.0]);
        dot(top, self.forward) > 0.9
    }
}

pub fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[test]
fn the_conventions_agree_with_the_evidence() {
    // A face-up tile at rotation 0: its image's top toward −z, its right toward −x, read
    // upright from +z; turned half a turn (rotY 180), upright from −z (White's side).
    let flat = Transform {
        position: [0.0; 3],
        rotation: [0.0; 3],
        scale: [1.0; 3],
    };
    let right_of_image = flat.to_world(button_to_local([1.0, 0.0, 0.0]));
    let top_of_image = flat.to_world(button_to_local([0.0, 0.0, -1.0]));
    assert!(right_of_image[0] < -0.99 && top_of_image[2] < -0.99);
    let turned = Transform {
        rotation: [0.0, 180.0, 0.0],
        ..flat
    };
    assert!(turned.to_world(button_to_local([1.0, 0.0, 0.0]))[0] > 0.99);
    // Face down about z: the face looks at the table.
    assert!(
        Transform {
            rotation: [0.0, 180.0, 180.0],
            ..flat
        }
        .face_down()
    );
    assert!(!turned.face_down());
    // A seat at −z whose zone is not turned looks toward +z, its right +x.
    let white = Seat::of_hand_zone(&serde_json::json!({
        "FogColor": "White",
        "Transform": { "posX": 0.0, "posY": 3.0, "posZ": -30.0, "rotY": 0.0 },
    }));
    assert!(white.reads_upright(&turned) && !white.reads_upright(&flat));
}
