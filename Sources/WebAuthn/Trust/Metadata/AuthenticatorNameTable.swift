// Generated from the community list of passkey provider AAGUIDs, names only (icons are left out: they are
// data-URL SVGs of several kilobytes each). Do not edit by hand; regenerate from the source.
//
// Source: https://github.com/passkeydeveloper/passkey-authenticator-aaguids, aaguid.json
// (commit 05ab14246014c51fbeb2bfe063bee3424055ce27 and its 2024-01-03 snapshot as mirrored in py_webauthn's
// examples), read 2026-11-22. The list is community-maintained public data; hardware security keys come from
// the FIDO Metadata Service instead.

/// AAGUIDs of the passkey providers people use, with their display names.
enum AuthenticatorNameTable {
    /// Lower-case hyphenated AAGUID → provider name.
    static let names: [String: String] = [
        "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
        "a11a5faa-9f32-4b8c-8c5d-2f7d13e8c942": "AliasVault",
        "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
        "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
        "b5397666-4885-aa6b-cebf-e52262a439a2": "Chromium Browser",
        "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
        "771b48fd-d3d4-4f74-9232-fc157ab0507a": "Edge on Mac",
        "f3809540-7f14-49c1-a8b3-8f813b225541": "Enpass",
        "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
        "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
        "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
        "39a5647e-1853-446c-a1f6-a79bae9f5bc7": "IDmelon",
        "bfc748bb-3429-4faa-b9f9-7cfa9f3b76d0": "iPasswords",
        "a05ff112-05dd-42ac-9926-eb84e0e19c88": "Kaspersky Password Manager",
        "fdb141b2-5d84-443e-8a35-4698c205a502": "KeePassXC",
        "0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6": "Keeper",
        "b78a0a55-6ef8-d246-a042-ba0f6d55050c": "LastPass",
        "22248c4c-7a12-46e2-9a41-44291b373a4d": "LogMeOnce",
        "b84e4048-15dc-4dd0-8640-f4f60813c8af": "NordPass",
        "50726f74-6f6e-5061-7373-50726f746f6e": "Proton Pass",
        "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
        "891494da-2c90-4d31-a9cd-4eab0aed1309": "Sésame",
        "8836336a-f590-0921-301d-46427531eee6": "Thales Bio Android SDK",
        "66a0ccb3-bd6a-191f-ee06-e375c50b9846": "Thales Bio iOS SDK",
        "cd69adb5-3c7a-deb9-3177-6800ea6cb72a": "Thales PIN Android SDK",
        "17290f1e-c212-34d0-1423-365d729f09d9": "Thales PIN iOS SDK",
        "cc45f64e-52a2-451b-831a-4edd8022a202": "ToothPic",
        "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
        "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
        "6e96969e-a5cf-4aad-9b56-305fe6c82795": "Windows Hello",
        "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
        "b35a26b2-8f6e-4697-ab1d-d44db4da28c6": "Zoho Vault",
    ]
}
