//! A backup taken while the game runs restores to the same rows: every table's row
//! count and checksum, on SQLite and PostgreSQL; a backup never overwrites a file,
//! and a file that is not a sound database is refused before anything is replaced.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;

use gapwise_server::backup::{backup, restore, BackupError};
use gapwise_store::testing::{each_backend, postgres, seed_small, sqlite};
use gapwise_store::{Backend, Store};
use sha2::{Digest, Sha256};
use sqlx::{Column, Row};

/// Each table's row count and a checksum of its rows (in a sorted order, so that
/// physical order does not matter). `_sqlx_migrations` is counted only: its
/// timestamps are of a type the Any driver does not read.
async fn fingerprint(store: &Store) -> BTreeMap<String, (usize, String)> {
    let tables = match store.backend() {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        Backend::Postgres => "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    };
    let names: Vec<String> = sqlx::query_scalar(tables).fetch_all(store.pool()).await.expect("tables");
    assert!(names.len() >= 30, "{names:?}");
    let mut prints = BTreeMap::new();
    for name in names {
        if name == "_sqlx_migrations" {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(store.pool()).await.expect("count");
            prints.insert(name, (n as usize, String::new()));
            continue;
        }
        let rows = sqlx::query(&format!("SELECT * FROM {name}")).fetch_all(store.pool()).await.expect("rows");
        let mut lines: Vec<String> = rows
            .iter()
            .map(|row| {
                (0..row.columns().len())
                    .map(|i| {
                        row.try_get::<Option<i64>, _>(i)
                            .map(|v| format!("{v:?}"))
                            .or_else(|_| row.try_get::<Option<f64>, _>(i).map(|v| format!("{v:?}")))
                            .or_else(|_| row.try_get::<Option<String>, _>(i).map(|v| format!("{v:?}")))
                            .or_else(|_| row.try_get::<Option<bool>, _>(i).map(|v| format!("{v:?}")))
                            .or_else(|_| row.try_get::<Option<Vec<u8>>, _>(i).map(|v| format!("{v:?}")))
                            .unwrap_or_else(|e| panic!("{name}.{}: {e}", row.columns()[i].name()))
                    })
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .collect();
        lines.sort();
        let digest = Sha256::digest(lines.join("\n").as_bytes());
        prints.insert(name, (lines.len(), format!("{digest:x}")));
    }
    prints
}

#[tokio::test]
async fn a_backup_restores_every_row_and_refuses_what_is_not_one() {
    for db in each_backend().await {
        seed_small(&db.store).await;
        db.store.admin().set_answers_per_item("admin", 12).await.expect("a setting and an audit row");
        let taken = fingerprint(&db.store).await;
        assert!(taken["sentences"].0 > 0 && taken["items"].0 > 0 && taken["audit_log"].0 > 0, "{taken:?}");
        let dir = tempfile::tempdir().expect("folder");
        let file = dir.path().join("gapwise.backup");
        backup(&db.store, &db.url, &file).await.expect("backup");
        assert!(matches!(backup(&db.store, &db.url, &file).await, Err(BackupError::Exists(_))), "never overwrites");

        // the game goes on after the backup ...
        db.store.admin().set_answers_per_item("admin", 20).await.expect("a later change");
        assert_ne!(fingerprint(&db.store).await, taken, "the checksums see the change");

        // ... and a restore brings back the rows as they were when it was taken
        let target = match db.backend() {
            Backend::Sqlite => sqlite().await,
            Backend::Postgres => postgres().await,
        };
        target.store.close().await;
        restore(&target.url, &file).await.expect("restore");
        let restored = Store::open(&target.url).await.expect("open the restored database");
        assert_eq!(fingerprint(&restored).await, taken, "on {:?}", db.backend());
        assert_eq!(restored.admin().answers_per_item().await.expect("setting"), 12);

        // a file that is not a backup changes nothing
        let junk = dir.path().join("junk.backup");
        std::fs::write(&junk, "not a database").expect("junk");
        assert!(restore(&target.url, &junk).await.is_err());
        assert!(restore(&target.url, &dir.path().join("missing")).await.is_err());
        assert_eq!(fingerprint(&restored).await, taken, "untouched by the refused restores");
    }
}
