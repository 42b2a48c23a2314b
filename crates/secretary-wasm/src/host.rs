//! The core's [`Host`] over a JavaScript object, called synchronously:
//!
//! ```ts
//! interface HostBridge {
//!   read(area: string, path: string): Uint8Array | null | undefined;
//!   writeAtomic(area: string, path: string, bytes: Uint8Array): void;
//!   remove(area: string, path: string): boolean;
//!   list(area: string, dir: string, recursive: boolean): string[];
//!   setting(key: string): unknown;   // any JSON value; undefined when unset
//!   stat?(area: string, path: string): { size: number; mtimeMs?: number } | null;  // optional
//!   rootOf?(area: string): string | undefined;          // optional: the area's absolute folder
//!   gitStatus?(repo: string): Uint8Array;               // optional: `git status --porcelain=v1 -z`
//!   listDirs?(area: string, dir: string): string[];      // optional: the folders directly under dir
//!   httpGet?(url: string, headers: Record<string, string>, timeoutMs: number):
//!     { status: number; body: string };                  // optional: an HTTP GET (see below)
//!   lock?(area: string, path: string): void;             // optional: a read-modify-write's lock
//!   unlock?(area: string, path: string): void;
//! }
//! ```
//!
//! `area` is `workspace`, `workspaceState`, `globalState`, `cargoRegistry` or `bundled`. A thrown
//! exception becomes a [`HostError`]: its `code` picks the kind (`SECRETARY_NO_AREA` →
//! unavailable, `SECRETARY_PATH_REFUSED` → refused, `SECRETARY_FETCH_PENDING` → pending,
//! `SECRETARY_NETWORK` → network, anything else → I/O), its `message` the text. The bridge in
//! TypeScript is `extension/src/host/nodeHost.ts`.
//!
//! `httpGet` is synchronous, but JavaScript fetches asynchronously: the host answers from the
//! current call's cache, and on a miss throws `SECRETARY_FETCH_PENDING`, fetches, and runs the tool
//! again (`extension/src/host/http.ts`).

use js_sys::{Array, Function, Reflect, Uint8Array};
use secretary_core::host::{
    Area, FileInfo, Host, HostError, HostErrorKind, HttpRequest, HttpResponse,
};
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

    /// Whether the host object has this (optional) method.
    fn has(&self, method: &str) -> bool {
        Reflect::get(&self.object, &JsValue::from_str(method)).is_ok_and(|f| f.is_function())
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
        Some("SECRETARY_FETCH_PENDING") => HostErrorKind::Pending,
        Some("SECRETARY_NETWORK") => HostErrorKind::Network,
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

    fn root(&self, area: Area) -> Option<String> {
        self.call("rootOf", &[JsValue::from_str(area.as_str())])
            .ok()?
            .as_string()
            .filter(|root| !root.is_empty())
    }

    fn git_status(&self, repo: &str) -> Result<Vec<u8>, HostError> {
        let value = self.call("gitStatus", &[JsValue::from_str(repo)])?;
        value
            .dyn_into::<Uint8Array>()
            .map(|bytes| bytes.to_vec())
            .map_err(|_| HostError::io("host.gitStatus must return a Uint8Array"))
    }

    fn dirs(&self, area: Area, dir: &str) -> Result<Vec<String>, HostError> {
        if !self.has("listDirs") {
            return secretary_core::host::dirs_from_list(self, area, dir);
        }
        let value = self.call("listDirs", &args(area, dir))?;
        let array = value
            .dyn_into::<Array>()
            .map_err(|_| HostError::io("host.listDirs must return an array of strings"))?;
        Ok(array.iter().filter_map(|item| item.as_string()).collect())
    }

    fn http_get(&self, request: &HttpRequest) -> Result<HttpResponse, HostError> {
        if !self.has("httpGet") {
            return Err(HostError::unavailable(
                "This host cannot make HTTP requests",
            ));
        }
        let headers = js_sys::Object::new();
        for (name, value) in &request.headers {
            Reflect::set(
                &headers,
                &JsValue::from_str(name),
                &JsValue::from_str(value),
            )
            .map_err(|err| host_error("httpGet", &err))?;
        }
        let value = self.call(
            "httpGet",
            &[
                JsValue::from_str(&request.url),
                headers.into(),
                JsValue::from_f64(request.timeout_ms as f64),
            ],
        )?;
        let field = |name: &str| Reflect::get(&value, &JsValue::from_str(name)).ok();
        let status = field("status")
            .and_then(|v| v.as_f64())
            .filter(|n| (100.0..1000.0).contains(n))
            .ok_or_else(|| HostError::io("host.httpGet must return {status, body}"))?;
        let body = field("body")
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        Ok(HttpResponse {
            status: status as u16,
            body,
        })
    }

    /// Optional in the bridge: a host without `lock` has no other process to wait for.
    fn lock(&self, area: Area, path: &str) -> Result<(), HostError> {
        if !self.has("lock") {
            return Ok(());
        }
        self.call("lock", &args(area, path)).map(|_| ())
    }

    fn unlock(&self, area: Area, path: &str) {
        if self.has("unlock") {
            // A failed release leaves a lock file the next `lock` finds stale; nothing to report.
            let _ = self.call("unlock", &args(area, path));
        }
    }

    /// Optional in the bridge: a host without `stat`, or a failing one, tells nothing.
    fn stat(&self, area: Area, path: &str) -> Option<FileInfo> {
        let value = self.call("stat", &args(area, path)).ok()?;
        if !value.is_object() {
            return None;
        }
        let number = |name: &str| {
            Reflect::get(&value, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_f64())
                .filter(|n| n.is_finite() && *n >= 0.0)
        };
        Some(FileInfo {
            size: number("size")? as u64,
            modified_ms: number("mtimeMs").map(|ms| ms as i64),
        })
    }
}
