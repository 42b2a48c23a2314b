//! The core's [`Host`] over a JavaScript object, called synchronously:
//!
//! ```ts
//! interface HostBridge {
//!   read(area: string, path: string): Uint8Array | null | undefined;
//!   writeAtomic(area: string, path: string, bytes: Uint8Array): void;
//!   remove(area: string, path: string): boolean;
//!   list(area: string, dir: string, recursive: boolean): string[];
//!   setting(key: string): unknown;   // any JSON value; undefined when unset
//! }
//! ```
//!
//! `area` is `workspace`, `workspaceState` or `globalState`. A thrown exception becomes a
//! [`HostError`]: its `code` picks the kind (`SECRETARY_NO_AREA` → unavailable,
//! `SECRETARY_PATH_REFUSED` → refused, anything else → I/O), its `message` the text. The bridge
//! in TypeScript is `extension/src/host/nodeHost.ts`.

use js_sys::{Array, Function, Reflect, Uint8Array};
use secretary_core::host::{Area, Host, HostError, HostErrorKind};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// A JavaScript host object.
pub struct JsHost {
    object: JsValue,
}

impl JsHost {
    /// `None` for `undefined` and `null` (the host offers no I/O).
    pub fn from_js(object: JsValue) -> Option<JsHost> {
        (object.is_object()).then_some(JsHost { object })
    }

    fn call(&self, method: &str, args: &[JsValue]) -> Result<JsValue, HostError> {
        let function = Reflect::get(&self.object, &JsValue::from_str(method))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| {
                HostError::unavailable(format!(
                    "This host offers no file access ({method} is missing)"
                ))
            })?;
        let list = Array::new();
        for arg in args {
            list.push(arg);
        }
        Reflect::apply(&function, &self.object, &list).map_err(|err| host_error(method, &err))
    }
}

/// An exception thrown by the host, as a [`HostError`].
fn host_error(method: &str, err: &JsValue) -> HostError {
    let field = |name: &str| {
        Reflect::get(err, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
    };
    let message = field("message")
        .or_else(|| err.as_string())
        .unwrap_or_else(|| format!("host.{method} failed"));
    let kind = match field("code").as_deref() {
        Some("SECRETARY_NO_AREA") => HostErrorKind::Unavailable,
        Some("SECRETARY_PATH_REFUSED") => HostErrorKind::Refused,
        _ => HostErrorKind::Io,
    };
    HostError::new(kind, message)
}

fn args(area: Area, path: &str) -> [JsValue; 2] {
    [JsValue::from_str(area.as_str()), JsValue::from_str(path)]
}

impl Host for JsHost {
    fn read(&self, area: Area, path: &str) -> Result<Option<Vec<u8>>, HostError> {
        let value = self.call("read", &args(area, path))?;
        if value.is_null() || value.is_undefined() {
            return Ok(None);
        }
        value
            .dyn_into::<Uint8Array>()
            .map(|bytes| Some(bytes.to_vec()))
            .map_err(|_| HostError::io("host.read must return a Uint8Array or null"))
    }

    fn write_atomic(&self, area: Area, path: &str, bytes: &[u8]) -> Result<(), HostError> {
        let [area, path] = args(area, path);
        self.call("writeAtomic", &[area, path, Uint8Array::from(bytes).into()])
            .map(|_| ())
    }

    fn remove(&self, area: Area, path: &str) -> Result<bool, HostError> {
        Ok(self.call("remove", &args(area, path))?.is_truthy())
    }

    fn list(&self, area: Area, dir: &str, recursive: bool) -> Result<Vec<String>, HostError> {
        let [area, dir] = args(area, dir);
        let value = self.call("list", &[area, dir, JsValue::from_bool(recursive)])?;
        let array = value
            .dyn_into::<Array>()
            .map_err(|_| HostError::io("host.list must return an array of strings"))?;
        Ok(array.iter().filter_map(|item| item.as_string()).collect())
    }

    fn setting(&self, key: &str) -> Option<Value> {
        let value = self.call("setting", &[JsValue::from_str(key)]).ok()?;
        if value.is_undefined() {
            return None;
        }
        serde_wasm_bindgen::from_value(value).ok()
    }
}
