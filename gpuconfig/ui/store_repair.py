"""At start-up, a database that cannot be used: say which file and why, and offer to repair it."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from gpuconfig.core.database import DamagedDatabase, Repair, StoreError
from gpuconfig.core.userdata.store import Store, repair_store, shipped_catalog


def _message(box: QMessageBox, name: str, icon: QMessageBox.Icon) -> None:
    box.setObjectName(name)
    box.setIcon(icon)
    box.setWindowTitle("gpuconfig")


class DamagedStoreDialog(QMessageBox):
    """Names the damaged file; Repair moves it aside and rebuilds it, Quit leaves everything as it is."""

    def __init__(self, damage: DamagedDatabase, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _message(self, "damaged_store", QMessageBox.Icon.Critical)
        self.setText(self.tr("gpuconfig cannot use its database:\n{problem}").format(problem=str(damage)))
        self.setInformativeText(
            self.tr(
                "Repair moves this file aside (it is kept, not deleted), builds a new database from the catalog "
                "and copies into it your saved builds, prices and settings that can still be read."
            )
        )
        self.repair_button = self.addButton(self.tr("Repair"), QMessageBox.ButtonRole.AcceptRole)
        self.quit_button = self.addButton(self.tr("Quit"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.repair_button)


class RepairedDialog(QMessageBox):
    """What the repair kept, and where the damaged file now is."""

    def __init__(self, repair: Repair, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _message(self, "store_repaired", QMessageBox.Icon.Information)
        labels = {
            "price_overrides": self.tr("prices you set"),
            "price_lists": self.tr("imported price lists"),
            "imported_prices": self.tr("imported prices"),
            "builds": self.tr("saved builds"),
            "settings": self.tr("settings"),
        }
        kept = ", ".join(f"{count} {labels.get(table, table)}" for table, count in repair.kept.items() if count)
        self.setText(
            self.tr("The database was rebuilt. The damaged file is kept as:\n{backup}").format(backup=repair.backup)
        )
        self.setInformativeText(self.tr("Copied over: {kept}").format(kept=kept or self.tr("nothing")))
        if repair.lost:
            self.setDetailedText(self.tr("Not kept:") + "\n" + "\n".join(repair.lost))


def repaired_store(damage: DamagedDatabase) -> Store | None:
    """Offer the repair; the rebuilt store, or None when the user quits or the repair cannot be done.

    Like the normal open it stands in for, the repair runs before the window exists (a catalog load)."""
    dialog = DamagedStoreDialog(damage)
    dialog.exec()
    if dialog.clickedButton() is not dialog.repair_button:
        return None
    catalog = shipped_catalog()
    try:
        repair = repair_store(damage.path, catalog)
        store = Store.open(damage.path, catalog)
    except StoreError as exc:
        QMessageBox.critical(None, "gpuconfig", str(exc))
        return None
    if repair is not None:
        RepairedDialog(repair).exec()
    return store
