//! The commands that only read (`report`, `export`, `export-pairs`, `backup`) never
//! write to the database they are given: another program's SQLite file, an empty
//! file, random bytes and a truncated Gapwise database are refused at once (well
//! under the pool's 5 s wait) with exit code 2 and the reason, and every file is left
//! byte for byte as it was (its SHA-256 before and after), with no `-wal` or `-shm`
//! file beside it; a Gapwise database in a read-only folder, read by a user who may
//! not write there, is reported and exported; on PostgreSQL the commands read in
//! read-only transactions.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{sha256, side_files, uid};
use gapwise_engine::testing::play;
use gapwise_engine::Engine;
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::Store;

/// The commands that only read, writing (where they write) under `out`.
fn commands(out: &Path) -> Vec<Vec<String>> {
    let at = |name: &str| out.join(name).display().to_string();
    vec![
        vec!["report".into(), "--out".into(), at("report")],
        vec!["export".into(), "--out".into(), at("export")],
        vec!["export-pairs".into()],
        vec!["backup".into(), at("backup.db")],
    ]
}

/// `gapwise` run as `user` (None: as this process): exit code, what it said, and
/// how long it took.
fn gapwise(binary: &Path, url: &str, args: &[String], user: Option<&str>) -> (Option<i32>, String, Duration) {
    let mut command = crate::common::command_as(binary, user);
    let started = Instant::now();
    let out = command.args(args).env("DATABASE_URL", url).env("RUST_LOG", "warn").output().expect("run gapwise");
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)), started.elapsed())
}

/// A Gapwise database with answers, closed (no server has it open).
async fn gapwise_database(file: &Path) {
    let store = Store::open(&format!("sqlite://{}", file.display())).await.expect("store");
    seed_small(&store).await;
    play(&Engine::new(store.clone()), 2, 3).await;
    store.close().await;
}

#[tokio::test]
async fn files_that_are_not_gapwise_databases_are_refused_and_left_as_they_were() {
    let dir = tempfile::tempdir().expect("tmp");
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_gapwise"));
    // another program's SQLite file
    let other = dir.path().join("other.db");
    let made = another_programs_database(&other);
    assert!(made.status.success(), "{made:?}");
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").expect("empty");
    let random = dir.path().join("random.db");
    std::fs::write(&random, (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect::<Vec<u8>>()).expect("random");
    let whole = dir.path().join("whole.db");
    gapwise_database(&whole).await;
    let truncated = dir.path().join("truncated.db");
    let bytes = std::fs::read(&whole).expect("read");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).expect("truncated");

    for (file, reason) in [
        (&other, "is not a Gapwise database (it holds no Gapwise schema)"),
        (&empty, "is not a Gapwise database (an empty file)"),
        (&random, "is not a Gapwise database (not a SQLite file)"),
        (&truncated, "cannot be read: database disk image is malformed"),
    ] {
        let before = sha256(file);
        let url = format!("sqlite://{}", file.display());
        let out = dir.path().join("out");
        for args in commands(&out) {
            let (code, said, took) = gapwise(&binary, &url, &args, None);
            assert_eq!(code, Some(2), "{args:?} on {}: {said}", file.display());
            assert!(said.contains(&file.display().to_string()) && said.contains(reason), "{args:?}: {said}");
            assert!(took < Duration::from_secs(3), "{args:?} took {took:?}: the cause at once, not the pool's time-out");
            assert_eq!(sha256(file), before, "{args:?} changed {}", file.display());
            assert!(side_files(file).is_empty(), "{args:?} left {:?}", side_files(file));
            assert!(!out.exists(), "{args:?} wrote {}", out.display());
        }
    }
}

/// A SQLite file of another program: one table of its own.
fn another_programs_database(file: &Path) -> std::process::Output {
    Command::new("sqlite3")
        .arg(file)
        .arg("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello');")
        .output()
        .expect("sqlite3 (Debian's sqlite3)")
}

#[tokio::test]
async fn a_database_in_a_read_only_folder_is_read_by_a_user_who_may_not_write_it() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let folder = dir.path().join("data");
    std::fs::create_dir(&folder).expect("folder");
    let file = folder.join("gapwise.db");
    gapwise_database(&file).await;
    let left = crate::common::side_files_after_close(&file).await;
    assert!(left.is_empty(), "closed: {left:?}");
    // as root, a user who may not write; as anyone else, that user
    let root = uid() == 0;
    let (binary, out, user) = if root {
        // the binary and the output folder where that user reaches them
        let bin = dir.path().join("gapwise");
        std::fs::copy(env!("CARGO_BIN_EXE_gapwise"), &bin).expect("copy");
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let out = dir.path().join("out");
        std::fs::create_dir(&out).expect("out");
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        (bin, out, Some("nobody"))
    } else {
        (PathBuf::from(env!("CARGO_BIN_EXE_gapwise")), dir.path().join("out"), None)
    };
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let before = sha256(&file);
    let url = format!("sqlite://{}", file.display());
    let mut exported = Vec::new();
    for args in commands(&out).into_iter().chain([vec!["export".into(), "--out".into(), out.join("again").display().to_string()]]) {
        let (code, said, _) = gapwise(&binary, &url, &args, user);
        assert_eq!(code, Some(0), "{args:?}: {said}");
        assert_eq!(sha256(&file), before, "{args:?} changed the database");
        assert!(side_files(&file).is_empty(), "{args:?} left {:?}", side_files(&file));
        if args[0] == "export" {
            exported.push(std::fs::read_to_string(Path::new(&args[2]).join("answers.csv")).expect("answers.csv"));
        }
    }
    // players never exported before get the same export ids every time, with nothing stored
    assert_eq!(exported.len(), 2);
    assert_eq!(exported[0], exported[1], "two exports name the players alike");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).expect("chmod back");
}

/// Opened to read only, neither backend takes a write.
#[tokio::test]
async fn a_store_opened_to_read_takes_no_write() {
    for db in each_backend().await {
        seed_small(&db.store).await;
        db.store.close().await;
        let store = Store::open_read_only(&db.url).await.expect("open to read");
        let languages: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM languages").fetch_one(store.pool()).await.expect("read");
        assert!(languages > 0);
        let err = sqlx::query("DELETE FROM languages").execute(store.pool()).await.expect_err("a write");
        assert!(err.to_string().contains("read"), "{err}");
    }
}
